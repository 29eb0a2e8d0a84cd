#ifndef TALLY_CPOSTGRESQL_SHIM_H
#define TALLY_CPOSTGRESQL_SHIM_H

#include <libpq-fe.h>

/// PG_DIAG_SQLSTATE is a character macro in postgres_ext.h; as a function Swift sees it plainly.
static inline int tally_pg_diag_sqlstate(void) {
    return PG_DIAG_SQLSTATE;
}

#endif
