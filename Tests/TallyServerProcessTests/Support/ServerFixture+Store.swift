import Foundation

extension ServerFixture {
    /// A server on SQLite (`"sqlite"`), or on a fresh database of the shared PostgreSQL cluster (`"postgres"`; see
    /// ``PostgresCluster/shared(for:)`` for when there is none).
    static func on(_ store: String, test: String = #function) throws -> ServerFixture {
        guard store == "postgres" else { return try ServerFixture() }
        let cluster = try PostgresCluster.shared(for: test)
        var options = ServerOptions()
        options.postgresURLEnv = ServerPair.urlVariable
        return try ServerFixture(options, environment: [ServerPair.urlVariable: try cluster.createDatabase()])
    }
}
