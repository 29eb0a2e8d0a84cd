import TallySQLite
import TallyStorage
/// A fixed set of read connections. Under WAL each reads its own snapshot beside the single writer,
/// so reads neither wait for writes nor block them.
final class ReadConnectionPool: Sendable {
    private let connections: [LockedConnection]

    /// Opens `count` (at least 1) connections with `open`.
    init(count: Int, open: () throws(SQLiteError) -> SQLiteConnection) throws(SQLiteError) {
        var connections: [LockedConnection] = []
        for _ in 0..<max(count, 1) {
            connections.append(LockedConnection(try open()))
        }
        self.connections = connections
    }

    /// Runs `body` on the first free connection; when all are in use, waits for a random one
    /// (random so waiting threads spread over the pool).
    func withConnection<T: Sendable, E: Error>(_ body: (SQLiteConnection) throws(E) -> T) throws(E) -> T {
        for slot in connections {
            if let result = try slot.withConnectionIfAvailable(body) { return result }
        }
        let slot = connections[Int.random(in: 0..<connections.count)]
        return try slot.withConnection(body)
    }
}
