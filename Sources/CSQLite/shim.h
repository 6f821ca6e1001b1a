// The system's SQLite (Debian's libsqlite3-dev), for `autotrack bench pipeline`'s
// comparison with the event stores of SDKs that keep their queue in SQLite.
#include <sqlite3.h>
