import Foundation

extension ServerFixture {
    /// A server on SQLite (`"sqlite"`), or on a fresh database of the shared PostgreSQL cluster (`"postgres"`; nil
    /// when PostgreSQL is not available outside CI, the reason printed).
    static func on(_ store: String, test: String = #function) throws -> ServerFixture? {
        guard store == "postgres" else { return try ServerFixture() }
        guard let cluster = try PostgresCluster.shared(for: test) else { return nil }
        var options = ServerOptions()
        options.postgresURLEnv = ServerPair.urlVariable
        return try ServerFixture(options, environment: [ServerPair.urlVariable: try cluster.createDatabase()])
    }
}
