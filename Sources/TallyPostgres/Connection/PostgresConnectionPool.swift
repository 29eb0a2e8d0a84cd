import Dispatch
import TallyLocking

/// At most `size` connections to one database, opened when first needed and reopened after one breaks: a
/// caller takes one (waiting while all are in use), runs its statements, and gives it back; a broken one is
/// dropped, so the next caller connects afresh (a restarted server is found again without restarting Tally).
final class PostgresConnectionPool: Sendable {
    /// The connection string or URL.
    let url: String
    /// The most connections open at once.
    let size: Int
    private let connectTimeoutSeconds: Int
    /// Whether connections prepare named statements (``PostgresConnection/namedStatements``).
    private let namedStatements: Bool
    /// Free slots: one per connection that may be in use.
    private let slots: DispatchSemaphore
    /// Connections not in use.
    private let idle = Locked<[Connection]>([])

    /// A connection with the pool's proof of exclusive use.
    ///
    /// `@unchecked Sendable`: a `PostgresConnection` is used by one thread at a time. It is reachable only from
    /// ``idle`` (under its mutex) or from the one caller of ``withConnection(_:)`` that took it there, which
    /// puts it back (or drops it) before returning; nothing else keeps a reference.
    private struct Connection: @unchecked Sendable {
        let connection: PostgresConnection
    }

    init(url: String, size: Int, connectTimeoutSeconds: Int = 5, namedStatements: Bool = true) {
        self.url = url
        self.namedStatements = namedStatements
        self.size = max(1, size)
        self.connectTimeoutSeconds = connectTimeoutSeconds
        slots = DispatchSemaphore(value: max(1, size))
    }

    /// Runs `body` with a connection of its own; a connection `body` broke is closed, not reused.
    func withConnection<T>(_ body: (PostgresConnection) throws(PostgresError) -> T) throws(PostgresError) -> T {
        slots.wait()
        defer { slots.signal() }
        let connection: PostgresConnection
        if let reused = idle.withLock({ $0.popLast() }), reused.connection.isOpen {
            connection = reused.connection
        } else {
            do {
                connection = try PostgresConnection(url: url, connectTimeoutSeconds: connectTimeoutSeconds,
                                                    namedStatements: namedStatements)
            } catch {
                var failure = error
                failure.duringConnect = true
                throw failure
            }
        }
        defer {
            if connection.isOpen { idle.withLock { $0.append(Connection(connection: connection)) } }
        }
        return try body(connection)
    }
}
