"""A Python client of the AutoTrack C API through ctypes, with no Swift on its side.

It creates a tracker from a JSON configuration, tracks events from several threads
(ctypes releases the GIL during each call), flushes to an NDJSON file and reads it
back; bad JSON and NULL pointers must come back as error messages.

    python3 test_ctypes.py /path/to/libAutoTrackC.so

Exit status 0 when every check holds.
"""
import ctypes
import json
import os
import sys
import tempfile
import threading
import time
import unittest

LIBRARY_PATH = os.environ.get("AUTOTRACK_LIBRARY", "")
THREADS = 4
EVENTS_PER_THREAD = 1000


def load(path):
    library = ctypes.CDLL(path)
    error_out = ctypes.POINTER(ctypes.c_void_p)
    library.autotrack_api_version.restype = ctypes.c_char_p
    library.autotrack_tracker_create.argtypes = [ctypes.c_char_p, error_out]
    library.autotrack_tracker_create.restype = ctypes.c_void_p
    library.autotrack_tracker_destroy.argtypes = [ctypes.c_void_p]
    library.autotrack_track.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, error_out]
    library.autotrack_flush.argtypes = [ctypes.c_void_p, error_out]
    library.autotrack_login.argtypes = [ctypes.c_void_p, ctypes.c_char_p, error_out]
    library.autotrack_set_consent.argtypes = [ctypes.c_void_p, ctypes.c_char_p, error_out]
    library.autotrack_diagnostics_json.argtypes = [ctypes.c_void_p, error_out]
    library.autotrack_diagnostics_json.restype = ctypes.c_void_p
    library.autotrack_string_free.argtypes = [ctypes.c_void_p]
    library.autotrack_host_interaction_scheduled.argtypes = [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_longlong), error_out]
    return library


class Error:
    """A `char **error` out-parameter; `message` reads and frees what was set."""

    def __init__(self, library):
        self.library = library
        self.slot = ctypes.c_void_p(None)

    @property
    def pointer(self):
        return ctypes.pointer(self.slot)

    def message(self):
        if not self.slot.value:
            return None
        text = ctypes.string_at(self.slot.value).decode("utf-8")
        self.library.autotrack_string_free(self.slot.value)
        self.slot = ctypes.c_void_p(None)
        return text


class CAPITests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.library = load(LIBRARY_PATH)
        cls.directory = tempfile.mkdtemp(prefix="autotrack-ctypes-")

    def configuration(self, name, **extra):
        configuration = {
            "store_directory": os.path.join(self.directory, name, "store"),
            "ndjson_file": os.path.join(self.directory, name, "delivered.ndjson"),
            "flush_batch_size": 100000,
            "flush_interval_seconds": None,
        }
        configuration.update(extra)
        return configuration

    def create(self, configuration):
        error = Error(self.library)
        tracker = self.library.autotrack_tracker_create(json.dumps(configuration).encode(), error.pointer)
        self.assertTrue(tracker, error.message())
        return tracker

    def test_events_from_threads_reach_the_file_once(self):
        configuration = self.configuration("threads")
        tracker = self.create(configuration)
        error = Error(self.library)
        self.assertEqual(self.library.autotrack_login(tracker, b"py-user", error.pointer), 0, error.message())
        failures = []

        def track(thread):
            own = Error(self.library)
            for sequence in range(EVENTS_PER_THREAD):
                properties = json.dumps({"thread": thread, "seq": sequence, "title": "商品 %d" % sequence}).encode()
                if self.library.autotrack_track(tracker, b"py_event", properties, own.pointer) != 0:
                    failures.append(own.message())

        started = time.monotonic()
        workers = [threading.Thread(target=track, args=(index,)) for index in range(THREADS)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        self.assertEqual(self.library.autotrack_flush(tracker, error.pointer), 0, error.message())
        elapsed = (time.monotonic() - started) * 1000
        self.library.autotrack_tracker_destroy(tracker)
        self.assertEqual(failures, [])

        seen = set()
        duplicates = 0
        with open(configuration["ndjson_file"], encoding="utf-8") as file:
            for line in file:
                event = json.loads(line)
                if event["event"] != "py_event":
                    continue
                key = (event["properties"]["thread"], event["properties"]["seq"])
                duplicates += key in seen
                seen.add(key)
                self.assertEqual(event["properties"]["title"], "商品 %d" % key[1])
                self.assertEqual(event["distinct_id"], "py-user")
        expected = {(thread, sequence) for thread in range(THREADS) for sequence in range(EVENTS_PER_THREAD)}
        print("\n  ctypes: tracked %d events from %d Python threads, flushed in %.1f ms; read back %d (%d missing, %d duplicated)"
              % (len(expected), THREADS, elapsed, len(seen), len(expected - seen), duplicates))
        self.assertEqual(seen, expected)
        self.assertEqual(duplicates, 0)

    def test_bad_input_gets_messages(self):
        error = Error(self.library)
        self.assertIsNone(self.library.autotrack_tracker_create(None, error.pointer))
        self.assertIn("NULL", error.message())
        self.assertIsNone(self.library.autotrack_tracker_create(b"{\"store_directory\": ", error.pointer))
        self.assertIn("JSON", error.message())
        self.assertIsNone(self.library.autotrack_tracker_create(b"[]", error.pointer))
        self.assertIn("object", error.message())
        self.assertEqual(self.library.autotrack_track(None, b"e", None, error.pointer), -1)
        self.assertIn("NULL", error.message())
        tracker = self.create(self.configuration("bad"))
        self.assertEqual(self.library.autotrack_track(tracker, b"e", b"{\"a\": ", error.pointer), -1)
        self.assertIn("properties_json", error.message())
        self.assertEqual(self.library.autotrack_track(tracker, b"e", b"{\"a\": \"\xff\"}", error.pointer), -1)
        self.assertIsNotNone(error.message())
        self.assertEqual(self.library.autotrack_set_consent(tracker, None, error.pointer), -1)
        self.assertIn("NULL", error.message())
        diagnostics = self.library.autotrack_diagnostics_json(tracker, error.pointer)
        self.assertTrue(diagnostics)
        self.assertEqual(json.loads(ctypes.string_at(diagnostics).decode())["store_failures"], 0)
        self.library.autotrack_string_free(diagnostics)
        self.library.autotrack_tracker_destroy(tracker)

    def test_host_tree_clicks_and_exposures(self):
        """A React-Native-shaped feed scrolled in three steps: each row is exposed once
        when half of it enters the viewport, and a tap on a row is a click with the
        exposure's element id."""
        configuration = self.configuration("host")
        tracker = self.create(configuration)
        error = Error(self.library)
        next_update = ctypes.c_longlong(0)

        def tree(offset):
            rows = [{"type": "RCTView", "role": "table_cell", "tag": "row-%d" % row, "list_position": {"index": row},
                     "frame": [0, row * 200, 390, 200], "exposure": {"min_visible_ratio": 0.5},
                     "children": [{"type": "RCTText", "role": "label", "text": "Item %d" % row}]} for row in range(8)]
            return json.dumps({
                "window": {"type": "UIWindow", "frame": [0, 0, 390, 844]},
                "screen": {"type": "FeedScreen", "screen_name": "feed"},
                "root": {"type": "RCTRootView", "frame": [0, 0, 390, 844], "children": [
                    {"type": "RCTScrollView", "role": "scroll_view", "frame": [0, 0, 390, 600], "content_offset": [0, offset],
                     "children": rows}]}}).encode()

        for offset, interaction in [(0, {"kind": "screen_view"}), (200, {"kind": "layout"}), (200, {"kind": "layout"}),
                                    (500, {"kind": "tap", "target": "row-4"})]:
            status = self.library.autotrack_host_interaction_scheduled(
                tracker, tree(offset), json.dumps(interaction).encode(), ctypes.byref(next_update), error.pointer)
            self.assertEqual(status, 0, error.message())
            self.assertEqual(next_update.value, -1)
        self.assertEqual(self.library.autotrack_flush(tracker, error.pointer), 0, error.message())
        self.library.autotrack_tracker_destroy(tracker)
        with open(configuration["ndjson_file"], encoding="utf-8") as file:
            events = [json.loads(line) for line in file]
        exposed = [event["properties"]["$element_position"] for event in events if event["event"] == "$AppElementExposure"]
        # Offset 0: rows 0-2; 200: row 3; 500: rows 4 and 5 (row 5 shows 100 of 200).
        self.assertEqual(sorted(exposed), ["0:0", "0:1", "0:2", "0:3", "0:4", "0:5"])
        click = next(event for event in events if event["event"] == "$AppClick")
        row4 = next(event for event in events if event["event"] == "$AppElementExposure"
                    and event["properties"]["$element_position"] == "0:4")
        self.assertEqual(click["properties"]["$element_id"], row4["properties"]["$element_id"])
        print("\n  ctypes: host feed scrolled in 3 steps: %d exposures, 1 click with the exposed row's id" % len(exposed))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        LIBRARY_PATH = sys.argv.pop(1)
    if not LIBRARY_PATH:
        sys.exit("usage: test_ctypes.py /path/to/libAutoTrackC.so")
    unittest.main(verbosity=2)
