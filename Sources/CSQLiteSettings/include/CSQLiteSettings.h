#ifndef CSQLITESETTINGS_H
#define CSQLITESETTINGS_H

/// Stops SQLite counting the memory it takes, process-wide; SQLite's result code. Only before the
/// process opens its first database, or it changes nothing (SQLITE_MISUSE).
int market_sqlite_stop_counting_memory(void);

#endif
