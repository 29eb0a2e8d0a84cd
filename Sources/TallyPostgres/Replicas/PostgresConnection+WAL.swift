import TallyStorage

extension PostgresConnection {
    /// The primary's write-ahead log insert position: after a COMMIT has returned, at or past its commit record.
    func walInsertPosition() throws(PostgresError) -> UInt64 {
        let rows = try query("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint")
        guard rows.count == 1, let value = try rows.integer(0, 0), value >= 0 else {
            throw .corrupt("pg_current_wal_insert_lsn() gave no position")
        }
        return UInt64(value)
    }

    /// What a standby says of its replay: how far it has replayed (nil when it is no standby) and whether replay is
    /// paused, in one statement.
    func replayStanding() throws(PostgresError) -> (replayed: UInt64?, paused: Bool) {
        let rows = try query("""
            SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint,
                CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() ELSE false END
            """)
        guard rows.count == 1 else { throw .corrupt("the replay position query gave no row") }
        let replayed = try rows.integer(0, 0).map { UInt64(max(0, $0)) }
        return (replayed, rows.bool(0, 1) ?? false)
    }

    /// How far this standby has replayed; nil when it is no standby.
    func replayPosition() throws(PostgresError) -> UInt64? {
        let rows = try query("SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint")
        guard rows.count == 1 else { throw .corrupt("the replay position query gave no row") }
        return try rows.integer(0, 0).map { UInt64(max(0, $0)) }
    }
}
