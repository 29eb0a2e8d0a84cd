import Foundation

extension ServerFixture {
    /// The stores a test over both runs against: `"postgres"` only where the PostgreSQL tests run
    /// (``PostgresCluster/canRun``), so without a cluster outside CI no PostgreSQL case exists to pass.
    static var testedStores: [String] { PostgresCluster.canRun ? ["sqlite", "postgres"] : ["sqlite"] }

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
