#include "CSQLiteSettings.h"

#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call. Counting takes one process-wide mutex on
// every allocation, and Debian's SQLite (built without lookaside memory) allocates often: at a
// million products the searches of two threads waited on each other for an eighth of their time.
int market_sqlite_stop_counting_memory(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
