import Foundation

/// Two `tally serve` processes on one PostgreSQL database (the same configuration, keys and signing
/// authority), each with its own client.
final class ServerPair {
    /// The environment variable the configuration's `store.urlEnv` names.
    static let urlVariable = "TALLY_TEST_DATABASE_URL"

    let cluster: PostgresCluster
    /// The database both servers use.
    let database: String
    /// The first server (and the configuration, keys and authority).
    let fixture: ServerFixture
    /// The second server.
    private(set) var second: ServerProcess
    private(set) var secondClient: APIClient

    /// With `replica`, both servers read from the cluster's streaming replica too (`store.replicas`); `through`
    /// gives the URL the servers use for the new database's (a pooler's in front of it), when given.
    init(cluster: PostgresCluster, options: ServerOptions = ServerOptions(), replica: Bool = false,
         through: ((String) throws -> String)? = nil) throws {
        self.cluster = cluster
        database = try cluster.createDatabase()
        var options = options
        options.postgresURLEnv = Self.urlVariable
        if replica { options.postgresReplicas = [try cluster.onReplica(database)] }
        fixture = try ServerFixture(options, environment: [Self.urlVariable: try through?(database) ?? database])
        second = try ServerProcess(data: fixture.directory.appendingPathComponent("data-2"), config: fixture.configFile,
                                   environment: fixture.environment)
        secondClient = APIClient(port: second.port, keys: fixture.keys)
    }

    deinit {
        secondClient.session.finishTasksAndInvalidate()
        try? second.killNow()
    }

    /// Stops both servers, applies `change` to the shared `tally-server.json` and starts both again.
    func reconfigure(_ change: (inout [String: Any]) -> Void) throws {
        try second.killNow()
        try fixture.reconfigure(change)
        second = try ServerProcess(data: fixture.directory.appendingPathComponent("data-2"), config: fixture.configFile,
                                   environment: fixture.environment)
        secondClient.session.finishTasksAndInvalidate()
        secondClient = APIClient(port: second.port, keys: fixture.keys)
    }

    /// Starts the second server again (it must have stopped), with the fixture's environment as it is now.
    func restartSecond() throws {
        guard !second.isRunning else { throw HarnessError("restartSecond() while the second server still runs") }
        second = try ServerProcess(data: fixture.directory.appendingPathComponent("data-2"), config: fixture.configFile,
                                   environment: fixture.environment)
        secondClient.session.finishTasksAndInvalidate()
        secondClient = APIClient(port: second.port, keys: fixture.keys)
    }

    /// The two clients: index 0 talks to the first server, 1 to the second.
    var clients: [APIClient] { [fixture.client, secondClient] }
}
