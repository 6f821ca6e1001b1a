#include "autotrack.h"

#include <stdlib.h>

/* Strings the API returns are allocated with malloc(3). */
void autotrack_string_free(char *string) { free(string); }

const char *autotrack_api_version(void) { return "1.0"; }
