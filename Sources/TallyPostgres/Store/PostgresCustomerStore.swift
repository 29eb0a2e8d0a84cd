import Foundation
import TallyLocking
import TallyCore
import TallyStorage

/// A ``TallyServer/CustomerStore`` on PostgreSQL (libpq), for many `tally serve` processes on one database.
///
/// Isolation, per operation (every write runs in one transaction at READ COMMITTED, committed before it returns):
/// - **Spends** are serialised per customer by a row lock: `SELECT … FROM customers … FOR UPDATE` before the net
///   is read, so two servers judging spends of one customer judge them one after another (never an overdraft).
/// - **Transactions** (posts, reconciliation, notifications' facts) take a transaction-scoped advisory lock per
///   chain (`pg_advisory_xact_lock`, sorted, before reading its owner), so chain ownership and pending
///   notifications are decided once; each copy is written with `INSERT … ON CONFLICT (transaction_id) DO UPDATE
///   … WHERE` the incoming copy is newer by `signed_date_ms`, a revoked copy winning a tie (TallyCore's
///   `StoreTransaction.supersedes`, which decides first; the SQL condition must agree, or the write is run again).
/// - **Notifications** are unique on `notification_uuid`: `INSERT … ON CONFLICT DO NOTHING` is the first write, so
///   the same notification delivered to two servers is applied by one and is a duplicate for the other.
/// - A customer's nets and version change only while its row is locked (`FOR UPDATE`), always before its
///   balances; a conflict PostgreSQL reports (a deadlock, a unique violation between two first inserts) rolls the
///   transaction back and runs it again, at most ``maxAttempts`` times.
/// - **Reads** are single statements (one snapshot each, no BEGIN); the dashboard's are one READ ONLY REPEATABLE
///   READ transaction each.
///
/// Failures: a connection that breaks is dropped and the next call connects again; a write that fails before
/// its COMMIT is retried on a fresh connection (nothing was stored), and otherwise throws
/// ``TallyServer/CustomerStoreError/Reason/unavailable`` (503). A store created while the database is down
/// starts anyway: it migrates on the first call that reaches the database, and until then every call
/// (and `/readyz`) fails.
public final class PostgresCustomerStore: CustomerStore {
    /// The most times one write runs when conflicts roll it back.
    public static let maxAttempts = 40

    /// What each transaction credits: the balances are kept with it.
    public let credits: CurrencyCredits
    /// How often one chain may move within the hour under ``TallyServer/OwnershipPolicy/transfer``.
    public let transferLimit: TransferLimit
    let pool: PostgresConnectionPool
    /// Where reads go when the store has replicas (`store.replicas`); nil: every read is the primary's.
    let router: PostgresReadRouter?
    /// Kept-state reads sharing statements.
    let stateReads = StateReadBatch()
    /// Where webhook events go (``routeWebhooks(_:committed:)``), and whom each commit wakes; no endpoint until then.
    let webhookRoutes = WebhookRoutes()
    /// Whether this process has seen the schema at ``PostgresSchema/currentVersion`` and the balances built
    /// with ``credits``.
    private let ready = Locked(false)

    /// Connects to `url` (a `postgresql://` URL or libpq connection string), migrates the schema under an advisory
    /// lock and rebuilds the balances when they were built with other credits. When the database cannot be reached
    /// the store is still created; the first call that reaches it does this work.
    ///
    /// - Parameters:
    ///   - poolSize: the most connections this store opens to each database (each at most one call at a time).
    ///   - replicas: streaming replicas of `url` that serve reads (``PostgresReadRouter``); empty: none.
    ///   - maxReplicaLagSeconds: how far behind the primary a replica may be and still serve reads.
    ///   - preparedStatements: false to send every statement unnamed (``PostgresConnection/namedStatements``), for
    ///     a pooler in transaction mode that cannot carry named prepared statements.
    /// - Throws: ``TallyServer/CustomerStoreError/Reason/unavailable`` when the database was written by a newer
    ///   Tally, or refuses this login or database (not a passing outage).
    public init(url: String, poolSize: Int, credits: CurrencyCredits, connectTimeoutSeconds: Int = 5,
                transferLimit: TransferLimit = TransferLimit(), replicas: [String] = [],
                maxReplicaLagSeconds: Double = 10, preparedStatements: Bool = true)
        throws(CustomerStoreError)
    {
        self.credits = credits
        self.transferLimit = transferLimit
        for (index, candidate) in ([url] + replicas).enumerated() {
            if let problem = PostgresConnection.problem(withURL: candidate) {
                let which = index == 0 ? "the store URL" : "store.replicas[\(index - 1)]"
                throw CustomerStoreError(.unavailable, "PostgreSQL: \(which) cannot be used: \(problem)")
            }
        }
        pool = PostgresConnectionPool(url: url, size: poolSize, connectTimeoutSeconds: connectTimeoutSeconds,
                                      namedStatements: preparedStatements)
        router = replicas.isEmpty ? nil
            : PostgresReadRouter(primaryURL: url, replicaURLs: replicas, poolSize: poolSize,
                                 maxLagSeconds: maxReplicaLagSeconds, connectTimeoutSeconds: connectTimeoutSeconds,
                                 namedStatements: preparedStatements)
        do throws(CustomerStoreError) {
            try prepare()
        } catch {
            let failure = error.underlying as? PostgresError
            if failure?.sqlState == PostgresError.newerSchemaSQLState || failure?.sqlState == "28P01"
                || failure?.sqlState == "3D000" || failure?.sqlState == "28000" {
                throw CustomerStoreError(.unavailable, error.message, underlying: error.underlying)
            }
            // Unreachable now: calls fail (503, /readyz not ready) until it is back.
        }
        router?.probe()
    }

    /// Migrates and rebuilds the balances once per process (again after a failure).
    private func prepare() throws(CustomerStoreError) {
        if ready.withLock({ $0 }) { return }
        let credits = self.credits
        do throws(PostgresError) {
            try pool.withConnection { (connection) throws(PostgresError) in
                try connection.migrate()
                connection.lockedCustomers.removeAll()
                try connection.execute("BEGIN")
                do throws(PostgresError) {
                    // Transaction-scoped: held on the transaction's server connection, even through a pooler.
                    try connection.query("SELECT pg_advisory_xact_lock($1::bigint)", [.integer(PostgresSchema.migrationLockKey)])
                    try connection.rebuildBalancesIfNeeded(credits)
                    try connection.execute("COMMIT")
                } catch {
                    _ = try? connection.execute("ROLLBACK")
                    throw error
                }
            }
        } catch {
            throw error.storeError("the customer store cannot be opened")
        }
        ready.withLock { $0 = true }
    }

    /// Runs `body` in one READ COMMITTED transaction on the primary and commits it; runs it again after a conflict
    /// (``PostgresError/isRetryable``) or a connection that broke before the COMMIT was sent.
    /// A commit wakes this process's webhook sender, unless `wakingSender` is false (the sender's own claims and results).
    func write<T>(_ what: String, wakingSender: Bool = true, _ body: (PostgresConnection) throws(PostgresError) -> T)
        throws(CustomerStoreError) -> T
    {
        try prepare()
        var attempt = 0
        while true {
            attempt += 1
            do throws(PostgresError) {
                return try pool.withConnection { (connection) throws(PostgresError) -> T in
                    connection.lockedCustomers.removeAll(keepingCapacity: true)
                    try connection.execute("BEGIN")
                    let value: T
                    do throws(PostgresError) {
                        value = try body(connection)
                    } catch {
                        if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
                        throw error
                    }
                    do throws(PostgresError) {
                        try connection.execute("COMMIT")
                    } catch {
                        var failure = error
                        failure.duringCommit = error.connectionLost
                        throw failure
                    }
                    if wakingSender { webhookRoutes.didCommit() }
                    noteWritten(on: connection)
                    return value
                }
            } catch {
                // A pooled connection found broken (the server restarted since) is replaced and the write run again;
                // a failed connect or a COMMIT whose answer was lost is not.
                let again = (error.isRetryable || (error.connectionLost && !error.duringCommit && !error.duringConnect))
                    && attempt < Self.maxAttempts && !(error.connectionLost && attempt >= 3)
                guard again else { throw error.storeError(what) }
                if error.isRetryable && attempt > 2 { usleep(UInt32.random(in: 200...2_000) * UInt32(min(attempt, 10))) }
            }
        }
    }

    /// With replicas, tells the request's ``TallyStorage/ReadSession`` where the primary's log stood after a COMMIT
    /// on `connection` (asked again on another connection when that one failed since): its answer carries it as
    /// `Tally-Read-After`, so its next read, on any server, sees this write.
    private func noteWritten(on connection: PostgresConnection) {
        guard router != nil, let session = ReadSession.current else { return }
        if let position = try? connection.walInsertPosition() {
            session.noteWritten(ReadAfter(position: position))
        } else if let position = try? pool.withConnection({ (other) throws(PostgresError) in try other.walInsertPosition() }) {
            session.noteWritten(ReadAfter(position: position))
        }
    }

    /// Runs one read (single statements, each its own snapshot): on a replica when the request's
    /// ``TallyStorage/ReadSession`` allows it and one can serve it (``PostgresReadRouter``), else on the primary.
    func read<T>(_ what: String, _ body: (PostgresConnection) throws(PostgresError) -> T) throws(CustomerStoreError) -> T {
        try prepare()
        if let router, let session = ReadSession.current, session.replicaAllowed {
            if let value = router.read(session, body) { return value }
            router.countPrimaryRead()
        }
        return try readOnPrimary(what, body)
    }

    /// Runs one statement on the primary, whatever the request: a read that is part of a write's decision, or a
    /// one-statement write (``keepState(_:for:)``). A connection that broke is replaced and the call tried once more.
    func readOnPrimary<T>(_ what: String, _ body: (PostgresConnection) throws(PostgresError) -> T) throws(CustomerStoreError) -> T {
        try prepare()
        var attempt = 0
        while true {
            attempt += 1
            do throws(PostgresError) {
                return try pool.withConnection(body)
            } catch {
                guard error.connectionLost, !error.duringConnect, attempt < 2 else { throw error.storeError(what) }
            }
        }
    }
}
