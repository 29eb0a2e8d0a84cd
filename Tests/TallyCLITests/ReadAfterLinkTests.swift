import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Tally
import Testing

/// The engine linked to a real `tally serve` that reads from a PostgreSQL replica applying commits 3 s late: the
/// engine sends back the `Tally-Read-After` its purchase's answer carried, so its next read sees the purchase.
@Suite("The engine and a server reading from a replica")
struct ReadAfterLinkTests {
    /// Whether the test runs: `make test`'s cluster is there, or `CI=true` (where its absence fails it).
    static var canRun: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["CI"] == "true" || !(environment["TALLY_TEST_POSTGRES_URL"] ?? "").isEmpty
    }

    @Test(.enabled(if: canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
    func theEnginesReadAfterItsPurchaseSeesItWhileTheReplicaLags() async throws {
        let cluster = try ReplicaCluster()
        let database = try cluster.createDatabase()
        let scratch = try ServerLinkTests.Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, extra: [
            "store": ["kind": "postgres", "url": database, "replicas": [try cluster.onReplica(database)],
                      "maxReplicaLagSeconds": 60] as [String: Any],
        ])
        try cluster.waitForReplay()  // the server's schema is on the replica
        try cluster.psqlOnReplica("ALTER SYSTEM SET recovery_min_apply_delay = '4s'")
        try cluster.psqlOnReplica("SELECT pg_reload_conf()")
        let store = try await scratch.store(server, user: "ria")
        guard case .purchased = try await store.purchase(ServerLinkTests.coins) else {
            Issue.record("not purchased")
            return
        }
        #expect(await store.refresh().balance("coins") == 10,
                "the engine's read carries its purchase's token: the primary answers, not the late replica")
        #expect(await store.stateSource == .server)
        #expect(try await Self.tokenlessCoins(server, "ria") == 0,
                "a read without the token is the replica's, which has not applied the purchase yet")
    }

    /// The customer's coins from `GET /v1/customers/{id}` without `Tally-Read-After`.
    static func tokenlessCoins(_ server: LinkedServer, _ appUserId: String) async throws -> Int {
        var request = URLRequest(url: server.url.appendingPathComponent("v1/customers/\(appUserId)"))
        request.setValue("Bearer \(server.publicKey)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let balances = (object?["customer"] as? [String: Any])?["balances"] as? [String: Any]
        return (balances?["coins"] as? NSNumber)?.intValue ?? 0
    }
}

/// A PostgreSQL primary and its streaming replica of this test's own (`scripts/with-postgres.sh --start --replica`),
/// stopped and removed when released.
final class ReplicaCluster {
    let url: String
    let replicaURL: String
    private let control: String
    private let replicaControl: String
    private let binaries: String

    init() throws {
        let environment = ProcessInfo.processInfo.environment
        if (environment["TALLY_TEST_POSTGRES_URL"] ?? "").isEmpty && environment["CI"] == "true" {
            throw CLITestError("TALLY_TEST_POSTGRES_URL is not set and CI=true: run the tests with make test")
        }
        let script = TallyProcess.packageRoot.appendingPathComponent("scripts/with-postgres.sh").path
        let output = try Self.run("/bin/bash", [script, "--start", "--replica"])
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        guard let url = values["TALLY_TEST_POSTGRES_URL"], let control = values["TALLY_TEST_POSTGRES_CTL"],
              let replicaURL = values["TALLY_TEST_POSTGRES_REPLICA_URL"],
              let replicaControl = values["TALLY_TEST_POSTGRES_REPLICA_CTL"],
              let binaries = values["TALLY_TEST_POSTGRES_BIN"] else {
            throw CLITestError("with-postgres.sh --start --replica printed no cluster: \(output)")
        }
        (self.url, self.control, self.replicaURL, self.replicaControl, self.binaries)
            = (url, control, replicaURL, replicaControl, binaries)
    }

    deinit {
        _ = try? Self.run(replicaControl, ["stop", "-m", "immediate"])
        _ = try? Self.run(control, ["stop", "-m", "immediate"])
        try? FileManager.default.removeItem(atPath: (control as NSString).deletingLastPathComponent)
    }

    /// A fresh database on the primary; its URL.
    func createDatabase() throws -> String {
        let name = "tally_link_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try Self.run(binaries + "/psql", [url, "-v", "ON_ERROR_STOP=1", "-qc", "CREATE DATABASE \(name)"])
        guard var components = URLComponents(string: url) else { throw CLITestError("not a URL: \(url)") }
        components.path = "/" + name
        return components.string ?? url
    }

    /// `database` on the replica.
    func onReplica(_ database: String) throws -> String {
        guard var components = URLComponents(string: replicaURL), let path = URLComponents(string: database)?.path else {
            throw CLITestError("not a URL: \(database)")
        }
        components.path = path
        return components.string ?? replicaURL
    }

    /// Runs `sql` on the replica's `postgres` database.
    @discardableResult
    func psqlOnReplica(_ sql: String) throws -> String {
        try Self.run(binaries + "/psql", [replicaURL, "-v", "ON_ERROR_STOP=1", "-Atqc", sql])
    }

    /// Waits (at most 30 s) until the replica has replayed all the primary has written now.
    func waitForReplay() throws {
        let target = try Self.run(binaries + "/psql", [url, "-Atqc", "SELECT pg_current_wal_insert_lsn()"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try psqlOnReplica("SELECT pg_last_wal_replay_lsn() >= '\(target)'::pg_lsn")
                .trimmingCharacters(in: .whitespacesAndNewlines) == "t" { return }
            usleep(20_000)
        }
        throw CLITestError("the replica did not replay \(target) within 30 s")
    }

    /// Runs a command to its end with `posix_spawn` (Foundation's `Process` can miss the exit of a script that
    /// leaves the postmaster behind); its standard output.
    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-link-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, file + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { try? FileManager.default.removeItem(atPath: file + ".err") }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
            throw CLITestError("cannot run \(executable)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let errors = (try? String(contentsOfFile: file + ".err", encoding: .utf8)) ?? ""
            throw CLITestError("\(executable) \(arguments.joined(separator: " ")) failed (\(status)): \(errors)")
        }
        return output
    }
}
