import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The PostgreSQL the process tests use: the cluster `make test` started (`TALLY_TEST_POSTGRES_URL`, shared,
/// one fresh database per test), or a private one (``startPrivate()``) for the tests that stop and restart
/// PostgreSQL, so they never disturb the tests running beside them on the shared one.
final class PostgresCluster: Sendable {
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "TALLY_TEST_POSTGRES_URL is not set and CI=true: the PostgreSQL tests must run in CI (make test starts a cluster)"
        }
    }

    /// The `postgres` database's URL.
    let url: String
    /// Runs `pg_ctl` on the cluster as its owner; nil for the shared cluster (never stopped by a test).
    let control: String?
    /// The directory with `psql`, `pgbench`.
    let binaries: String
    /// Its streaming replica's `postgres` database (`with-postgres.sh --replica`); nil when it has none.
    let replicaURL: String?
    /// Runs `pg_ctl` on the replica; nil for the shared cluster's (never stopped by a test) or none.
    let replicaControl: String?

    private init(url: String, control: String?, binaries: String, replicaURL: String? = nil,
                 replicaControl: String? = nil) {
        self.url = url
        self.control = control
        self.binaries = binaries
        self.replicaURL = replicaURL
        self.replicaControl = replicaControl
    }

    deinit {
        if let replicaControl { _ = try? Self.run(replicaControl, ["stop", "-m", "immediate"]) }
        if let control {
            _ = try? Self.run(control, ["stop", "-m", "immediate"])
            try? FileManager.default.removeItem(atPath: (control as NSString).deletingLastPathComponent)
        }
    }

    /// Whether the PostgreSQL tests run: the cluster's URL is set, or `CI=true` (where its absence fails them).
    /// A PostgreSQL-only test carries `.enabled(if: PostgresCluster.canRun)`, so outside CI without a cluster it
    /// shows as skipped; a test over both stores takes ``ServerFixture/testedStores``.
    static var canRun: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["CI"] == "true" || !(environment["TALLY_TEST_POSTGRES_URL"] ?? "").isEmpty
    }

    /// The shared cluster. When `TALLY_TEST_POSTGRES_URL` is absent: throws under `CI=true`; otherwise (a test
    /// that did not check ``canRun``) cancels the running test (`Test.cancel`), never passes it.
    static func shared(for test: String = #function) throws -> PostgresCluster {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["TALLY_TEST_POSTGRES_URL"], !url.isEmpty else {
            if environment["CI"] == "true" { throw Missing() }
            try Test.cancel("PostgreSQL (\(test)): TALLY_TEST_POSTGRES_URL is not set; run `make test` or scripts/with-postgres.sh")
        }
        let replica = environment["TALLY_TEST_POSTGRES_REPLICA_URL"].flatMap { $0.isEmpty ? nil : $0 }
        return PostgresCluster(url: url, control: nil,
                               binaries: environment["TALLY_TEST_POSTGRES_BIN"] ?? "/usr/lib/postgresql/15/bin",
                               replicaURL: replica)
    }

    /// A cluster of this test's own (`scripts/with-postgres.sh --start`), stopped and deleted when released; when
    /// PostgreSQL is not available, as ``shared(for:)`` (the shared cluster's variable is what says it is).
    /// With `replica`, it has a streaming replica of its own (``replicaURL``, ``replicaControl``).
    static func startPrivate(for test: String = #function, replica: Bool = false) throws -> PostgresCluster {
        _ = try shared(for: test)
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/with-postgres.sh").path
        let output = try run("/bin/bash", [script, "--start"] + (replica ? ["--replica"] : []))
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        guard let url = values["TALLY_TEST_POSTGRES_URL"], let control = values["TALLY_TEST_POSTGRES_CTL"] else {
            throw HarnessError("with-postgres.sh --start printed no cluster: \(output)")
        }
        if replica && values["TALLY_TEST_POSTGRES_REPLICA_URL"] == nil {
            throw HarnessError("with-postgres.sh --start --replica printed no replica: \(output)")
        }
        return PostgresCluster(url: url, control: control, binaries: values["TALLY_TEST_POSTGRES_BIN"] ?? "",
                               replicaURL: values["TALLY_TEST_POSTGRES_REPLICA_URL"],
                               replicaControl: values["TALLY_TEST_POSTGRES_REPLICA_CTL"])
    }

    /// The URL of `database` (a URL ``createDatabase()`` gave) on the replica: the same database, replicated.
    func onReplica(_ database: String) throws -> String {
        guard let replicaURL, var components = URLComponents(string: replicaURL),
              let path = URLComponents(string: database)?.path else {
            throw HarnessError("this cluster has no replica (with-postgres.sh --replica)")
        }
        components.path = path
        guard let url = components.string else { throw HarnessError("not a URL: \(replicaURL)") }
        return url
    }

    /// Runs one SQL command with `psql` on the replica's `database` (its `postgres` database by default).
    @discardableResult
    func psqlOnReplica(_ sql: String, database: String? = nil) throws -> String {
        try Self.run(binaries + "/psql", [try database.map(onReplica) ?? (replicaURL ?? ""), "-v", "ON_ERROR_STOP=1",
                                          "-Atqc", sql])
    }

    /// `pg_ctl ARGUMENTS` on a private cluster's replica.
    func replicaCtl(_ arguments: [String]) throws {
        guard let replicaControl else { throw HarnessError("no replica of this test's own to stop") }
        try Self.run(replicaControl, arguments)
    }

    /// Creates a fresh database and returns its URL.
    func createDatabase() throws -> String {
        let name = "tally_process_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try psql("CREATE DATABASE \(name)")
        guard var components = URLComponents(string: url) else { throw HarnessError("not a URL: \(url)") }
        components.path = "/" + name
        guard let database = components.string else { throw HarnessError("not a URL: \(url)") }
        return database
    }

    /// Runs one SQL command with `psql` on `database` (the `postgres` database by default); its output.
    @discardableResult
    func psql(_ sql: String, database: String? = nil) throws -> String {
        try Self.run(binaries + "/psql", [database ?? url, "-v", "ON_ERROR_STOP=1", "-Atqc", sql])
    }

    /// `pg_ctl ARGUMENTS` on a private cluster.
    func pgctl(_ arguments: [String]) throws {
        guard let control else { throw HarnessError("the shared cluster is never stopped by a test") }
        try Self.run(control, arguments)
    }

    /// Runs a command to its end; its standard output. Spawned with `posix_spawn` and reaped with `waitpid`
    /// (Foundation's `Process` missed the exit of a script that leaves a daemon behind, the postmaster), output
    /// through files.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tally-run-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: scratch + ".out")
            try? FileManager.default.removeItem(atPath: scratch + ".err")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, scratch + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, scratch + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw HarnessError("cannot run \(executable): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: scratch + ".out", encoding: .utf8)) ?? ""
        guard status == 0 else {
            let errors = (try? String(contentsOfFile: scratch + ".err", encoding: .utf8)) ?? ""
            throw HarnessError("\(executable) \(arguments.joined(separator: " ")) failed (wait status \(status)): \(errors)")
        }
        return output
    }
}
