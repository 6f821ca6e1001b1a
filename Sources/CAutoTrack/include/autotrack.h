/*
 * autotrack.h — the AutoTrack core for hosts that are not Swift: React Native
 * (C++/JSI), Flutter (dart:ffi), Unity, web views, Objective-C, Python (ctypes).
 *
 * Link with libAutoTrackC (`pkg-config --cflags --libs autotrack`; `autotrack
 * pkg-config --out DIR` writes the .pc file for a build).
 *
 * Conventions, for every function:
 * - Strings in are NUL-terminated UTF-8 and are only read during the call.
 * - A function that can fail returns 0 on success and -1 on failure, or NULL for a
 *   pointer. On failure, when `error` is not NULL, `*error` is set to a message the
 *   caller frees with autotrack_string_free(); on success `*error` is set to NULL.
 * - Bad input — NULL pointers, invalid JSON, invalid names — is an error, never a
 *   crash. A tracker pointer must come from autotrack_tracker_create() and not have
 *   been destroyed.
 * - Every function may be called from any thread, concurrently, on the same tracker.
 */
#ifndef AUTOTRACK_H
#define AUTOTRACK_H

#ifdef __cplusplus
extern "C" {
#endif

/* A tracker: a durable event queue in a store directory, identity, super properties,
 * settings and a transport. Opaque. */
typedef struct autotrack_tracker autotrack_tracker;

/* The API's version, e.g. "1.0". Static: never free it. */
const char *autotrack_api_version(void);

/* Creates a tracker from a JSON configuration object. Keys (only "store_directory" is
 * required; an unknown key is an error, and so is a key only another transport reads,
 * such as "endpoint" without "transport": "http"):
 *   "store_directory"        string   where the queue, identity and consent live
 *   "transport"              string   "ndjson" (default), "http" or "none"
 *   "ndjson_file"            string   the file "ndjson" appends to
 *                                     (default: <store_directory>/events.ndjson)
 *   "endpoint"               string   the collector URL ("http")
 *   "wire_format"            string   "sensors-form" (default) or "json" ("http")
 *   "timeout_seconds"        number   per request ("http"; default 10)
 *   "flush_batch_size"       integer  events that trigger a flush (default 50)
 *   "flush_interval_seconds" number   periodic flush; null or 0: none (default 15)
 *   "sync_each_batch"        bool     fsync every stored batch (default false)
 *   "app_version"            string   $app_version (default "1.0")
 *   "consent"                string   "granted" (default), "pending" or "denied"
 *   "capture_crashes"        bool     fatal signals become AppCrashed next launch;
 *                                     the handlers are process-wide and stay after
 *                                     destroy, writing to the last such tracker's store
 *   "settings"               object   an automatic-capture settings document
 *   "remote_settings_url"    string   a settings document fetched while the tracker
 *                                     runs (ETag, backoff, the last good one kept)
 *   "remote_settings_interval_seconds" number  between fetches (default 600)
 * Returns NULL on failure. */
autotrack_tracker *autotrack_tracker_create(const char *configuration_json, char **error);

/* Flushes what can be sent, stops the tracker and frees it. NULL does nothing. */
void autotrack_tracker_destroy(autotrack_tracker *tracker);

/* Tracks `event` with the properties in `properties_json` (a JSON object of strings,
 * numbers, booleans and arrays of strings; NULL or "" for none). The event is stored
 * durably before the next flush sends it. */
int autotrack_track(autotrack_tracker *tracker, const char *event, const char *properties_json, char **error);

/* Stores what is pending and sends what the transport takes. */
int autotrack_flush(autotrack_tracker *tracker, char **error);

/* Sets the anonymous id (distinct_id before login). Kept in the store directory, as a
 * login is, for later launches. */
int autotrack_identify(autotrack_tracker *tracker, const char *anonymous_id, char **error);

/* Logs in as `login_id`; autotrack_logout() returns to the anonymous id. */
int autotrack_login(autotrack_tracker *tracker, const char *login_id, char **error);
int autotrack_logout(autotrack_tracker *tracker, char **error);

/* Adds super properties (a JSON object) to every later event. */
int autotrack_register_super_properties(autotrack_tracker *tracker, const char *properties_json, char **error);

/* Applies a settings document (JSON) over the settings in force: the keys it holds
 * change, the others stay. */
int autotrack_load_settings(autotrack_tracker *tracker, const char *settings_json, char **error);

/* Sets the consent: "granted", "pending" (kept, not sent) or "denied" (nothing kept,
 * the queue purged). */
int autotrack_set_consent(autotrack_tracker *tracker, const char *consent, char **error);

/* The tracker's counters as a JSON object (queued, delivered, pending, store
 * failures …); NULL on failure. Free it with autotrack_string_free(). */
char *autotrack_diagnostics_json(autotrack_tracker *tracker, char **error);

/* Automatic capture for a UI framework that is not UIKit (React Native, Flutter, a web
 * view): `tree_json` is the screen as an element tree, `interaction_json` what the user
 * did on it. The click gets the properties, view path, element id and filters a UIKit
 * click gets.
 *   tree:  {"screen": {"type": "ProductScreen", "title": "Shoes", "screen_name": ...,
 *                      "url": ..., "properties": {...}},
 *           "root": {"type": "RCTView", "children": [
 *             {"type": "RCTTouchableOpacity", "role": "button", "tag": 12, "text": "Buy",
 *              "frame": [16, 600, 120, 44], "accessibility_id": ..., "custom_id": ...,
 *              "properties": {...}, "list_position": {"section": 0, "index": 3},
 *              "hidden": false, "ignored": false | true | "descendants",
 *              "masks_text": false, "alpha": 1, "clips_to_bounds": false,
 *              "content_offset": [0, 0], "exposure": true | {...}, "children": [...]}]},
 *           "window": {"type": "UIWindow", "frame": [0, 0, 390, 844]}}
 *   interaction: {"kind": "screen_view"} | {"kind": "tap", "target": 12, "action": "onPress"}
 *                | {"kind": "touch", "target": 12} | {"kind": "layout"}
 *                | {"kind": "background"} | {"kind": "foreground"}
 * Roles: view, label, image, button, toggle, segmented_control, slider, stepper,
 * text_field, secure_text_field, search_field, text_view, tab_bar_item, control,
 * scroll_view, table, collection, table_cell, collection_cell.
 *
 * Exposure: a tagged node with "exposure" records $AppElementExposure when enough of it
 * is visible in the window for long enough, once per appearance:
 *   "exposure": true (the tracker's settings) or {"min_visible_ratio": 0.5,
 *   "min_duration_ms": 1000, "repeats": true, "properties": {...}, "event": "BannerSeen"}.
 * Each tree sent is what is on screen now; a watched node sent again with its tag, type
 * and role keeps its appearance, one missing or out of view has left. Send the tree with
 * {"kind": "layout"} after scrolling and layout, and at the time
 * autotrack_host_interaction_scheduled() gives.
 *
 * A tree or interaction that cannot be read fails with nothing recorded. One exception:
 * when only a node's exposure request is refused (an invalid "event" name or
 * "properties"), the interaction and the other exposures are recorded, and the call
 * returns -1 with a message that starts "the interaction was recorded" — fix the
 * request; sending the call again would record the interaction twice. */
int autotrack_host_interaction(autotrack_tracker *tracker, const char *tree_json, const char *interaction_json, char **error);

/* As autotrack_host_interaction(), and writes to *next_update_ms (when not NULL) how many
 * milliseconds from now to send the tree again so an exposure's minimum duration is
 * honoured if nothing changes before, or -1 when no exposure is pending. */
int autotrack_host_interaction_scheduled(autotrack_tracker *tracker, const char *tree_json, const char *interaction_json,
                                         long long *next_update_ms, char **error);

/* Frees a string the API returned. NULL does nothing. */
void autotrack_string_free(char *string);

#ifdef __cplusplus
}
#endif

#endif /* AUTOTRACK_H */
