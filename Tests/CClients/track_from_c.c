/*
 * A client of the AutoTrack C API with no Swift on its side: it creates a tracker
 * from a JSON configuration, tracks events from several threads at once, flushes them
 * to an NDJSON file, reads the file back and checks that every event arrived once;
 * then it feeds the API bad input and checks each call fails with a message.
 *
 *   cc track_from_c.c $(pkg-config --cflags --libs autotrack) -lpthread -o track_from_c
 *   ./track_from_c STORE_DIRECTORY
 *
 * Exit status 0 when every check holds.
 */
#define _POSIX_C_SOURCE 200809L
#include <autotrack.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define THREADS 4
#define EVENTS_PER_THREAD 2500

static autotrack_tracker *tracker;
static int failures;

static void check(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "FAILED: %s\n", what);
        failures++;
    }
}

static void *track_events(void *argument) {
    int thread = (int)(long)argument;
    char properties[128];
    for (int sequence = 0; sequence < EVENTS_PER_THREAD; sequence++) {
        snprintf(properties, sizeof properties, "{\"thread\": %d, \"seq\": %d, \"sku\": \"A-%d\"}", thread, sequence, sequence % 7);
        char *error = NULL;
        if (autotrack_track(tracker, "c_event", properties, &error) != 0) {
            fprintf(stderr, "track failed: %s\n", error ? error : "(no message)");
            autotrack_string_free(error);
            failures++;
        }
    }
    return NULL;
}

/* Reads the NDJSON file back: every (thread, seq) once. */
static long read_back(const char *path, unsigned char seen[THREADS][EVENTS_PER_THREAD], long *duplicates) {
    FILE *file = fopen(path, "r");
    if (file == NULL) return -1;
    static char line[1 << 16];
    long events = 0;
    while (fgets(line, sizeof line, file) != NULL) {
        if (strstr(line, "\"event\":\"c_event\"") == NULL) continue;
        const char *thread_field = strstr(line, "\"thread\":");
        const char *seq_field = strstr(line, "\"seq\":");
        if (thread_field == NULL || seq_field == NULL) continue;
        int thread = atoi(thread_field + 9), sequence = atoi(seq_field + 6);
        if (thread < 0 || thread >= THREADS || sequence < 0 || sequence >= EVENTS_PER_THREAD) continue;
        if (seen[thread][sequence]) (*duplicates)++;
        seen[thread][sequence] = 1;
        events++;
    }
    fclose(file);
    return events;
}

static int fails_with_message(int status, char *error) {
    int ok = status != 0 && error != NULL && strlen(error) > 0;
    if (ok) printf("  refused: %s\n", error);
    autotrack_string_free(error);
    return ok;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s STORE_DIRECTORY\n", argv[0]);
        return 2;
    }
    char configuration[4096], ndjson[4096];
    snprintf(ndjson, sizeof ndjson, "%s/delivered.ndjson", argv[1]);
    snprintf(configuration, sizeof configuration,
             "{\"store_directory\": \"%s/store\", \"transport\": \"ndjson\", \"ndjson_file\": \"%s\", "
             "\"flush_batch_size\": 100000, \"flush_interval_seconds\": null, \"app_version\": \"2.1\"}",
             argv[1], ndjson);
    printf("autotrack C API %s\n", autotrack_api_version());

    char *error = NULL;
    tracker = autotrack_tracker_create(configuration, &error);
    if (tracker == NULL) {
        fprintf(stderr, "create failed: %s\n", error ? error : "(no message)");
        return 1;
    }
    check(error == NULL, "no error message after a successful create");
    check(autotrack_login(tracker, "user-42", &error) == 0, "login");
    check(autotrack_register_super_properties(tracker, "{\"platform\": \"c\"}", &error) == 0, "super properties");

    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pthread_t threads[THREADS];
    for (long index = 0; index < THREADS; index++) pthread_create(&threads[index], NULL, track_events, (void *)index);
    for (int index = 0; index < THREADS; index++) pthread_join(threads[index], NULL);
    check(autotrack_flush(tracker, &error) == 0, "flush");
    clock_gettime(CLOCK_MONOTONIC, &end);
    double milliseconds = (end.tv_sec - start.tv_sec) * 1000.0 + (end.tv_nsec - start.tv_nsec) / 1e6;

    char *diagnostics = autotrack_diagnostics_json(tracker, &error);
    check(diagnostics != NULL, "diagnostics");
    if (diagnostics != NULL) printf("diagnostics: %s\n", diagnostics);
    autotrack_string_free(diagnostics);
    autotrack_tracker_destroy(tracker);

    static unsigned char seen[THREADS][EVENTS_PER_THREAD];
    long duplicates = 0;
    long events = read_back(ndjson, seen, &duplicates);
    long missing = 0;
    for (int thread = 0; thread < THREADS; thread++)
        for (int sequence = 0; sequence < EVENTS_PER_THREAD; sequence++) missing += !seen[thread][sequence];
    printf("tracked %d events from %d threads, stored and flushed in %.1f ms; read back %ld (%ld missing, %ld duplicated)\n",
           THREADS * EVENTS_PER_THREAD, THREADS, milliseconds, events, missing, duplicates);
    check(events == THREADS * EVENTS_PER_THREAD && missing == 0 && duplicates == 0, "every event delivered once");

    /* Bad input: each call fails with a message, nothing crashes. */
    check(fails_with_message(autotrack_tracker_create(NULL, &error) == NULL ? -1 : 0, error), "NULL configuration");
    check(fails_with_message(autotrack_tracker_create("{not json", &error) == NULL ? -1 : 0, error), "invalid JSON");
    check(fails_with_message(autotrack_tracker_create("{\"store_dir\": \"/tmp/x\"}", &error) == NULL ? -1 : 0, error), "unknown key");
    check(fails_with_message(autotrack_track(NULL, "e", NULL, &error), error), "NULL tracker");
    autotrack_tracker *second = autotrack_tracker_create(configuration, &error);
    check(second != NULL, "a second tracker on the same store after the first was destroyed");
    check(fails_with_message(autotrack_track(second, NULL, NULL, &error), error), "NULL event name");
    check(fails_with_message(autotrack_track(second, "9 bad name", NULL, &error), error), "invalid event name");
    check(fails_with_message(autotrack_track(second, "ok", "[1, 2]", &error), error), "properties not an object");
    check(fails_with_message(autotrack_track(second, "ok", "{\"nested\": {\"a\": 1}}", &error), error), "nested property");
    check(fails_with_message(autotrack_set_consent(second, "maybe", &error), error), "unknown consent");
    check(autotrack_track(second, "ok", NULL, NULL) == 0, "a NULL error pointer is allowed");
    autotrack_tracker_destroy(second);
    autotrack_tracker_destroy(NULL);

    printf(failures == 0 ? "all checks passed\n" : "%d checks failed\n", failures);
    return failures == 0 ? 0 : 1;
}
