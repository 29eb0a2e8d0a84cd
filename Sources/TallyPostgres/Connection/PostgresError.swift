import TallyStorage

/// A libpq or server failure: the SQLSTATE when the server sent one, and whether the connection is gone.
struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// The five-character SQLSTATE (`40001`, `23505`, …); empty when the failure was the connection's.
    var sqlState: String
    /// libpq's or the server's message.
    var message: String
    /// Whether the connection broke (the server went away, a network error): it must be discarded.
    var connectionLost: Bool
    /// Whether the COMMIT had been sent when the connection broke (its outcome is unknown).
    var duringCommit = false
    /// Whether a new connection could not be opened (the server is down or unreachable): trying again at once
    /// would only wait again.
    var duringConnect = false

    init(sqlState: String = "", _ message: String, connectionLost: Bool = false) {
        self.sqlState = sqlState
        self.message = message
        self.connectionLost = connectionLost
    }

    /// A conflict another transaction caused, which running the whole transaction again resolves: a
    /// serialization failure (40001), a deadlock (40P01), a unique violation (23505) between two first writes,
    /// or ``retry(_:)`` from the store itself.
    var isRetryable: Bool { ["40001", "40P01", "23505", Self.retrySQLState].contains(sqlState) }

    /// The store's own "run it again" marker: a row a concurrent transaction created between a read and a write.
    static let retrySQLState = "TALLY"

    /// A concurrent change seen: the transaction is rolled back and run again.
    static func retry(_ message: String) -> PostgresError {
        PostgresError(sqlState: retrySQLState, message)
    }

    /// A stored value that does not read back (a damaged or foreign row).
    static func corrupt(_ message: String) -> PostgresError {
        PostgresError(sqlState: "XX001", message)
    }

    var description: String { sqlState.isEmpty ? message : "\(message) (SQLSTATE \(sqlState))" }

    /// The store error a caller sees: a lost connection or a server that refuses connections is `unavailable`
    /// (503, nothing committed — or, for a COMMIT whose answer was lost, possibly committed: the client retries,
    /// and every write is idempotent); a conflict still present after the retries is `busy`; anything else `failed`.
    func storeError(_ what: String) -> CustomerStoreError {
        let reason: CustomerStoreError.Reason
        if connectionLost || sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState == "53300" {
            reason = .unavailable
        } else if sqlState == "54000" {  // program_limit_exceeded: an index row (an id) too large
            reason = .tooLarge
        } else if isRetryable || sqlState == "55P03" {
            reason = .busy
        } else {
            reason = .failed
        }
        let outcome = duringCommit ? " (the connection broke during COMMIT; the write may or may not be stored)" : ""
        return CustomerStoreError(reason, "PostgreSQL: \(what): \(description)\(outcome)", underlying: self)
    }
}
