#ifndef TALLY_CSQLITE_SHIM_H
#define TALLY_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import: SQLite copies
/// bound text and blobs when given this destructor.
static inline sqlite3_destructor_type tally_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
