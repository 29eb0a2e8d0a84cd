import Foundation
import TallySandbox

/// A scratch directory with a server configuration for the Market example, a data directory, the keys,
/// the sandbox certificate authority whose root the configuration trusts, and the running server.
/// Releasing it kills the server and removes the directory.
final class ServerFixture {
    /// The scratch directory.
    let directory: URL
    /// `tally serve --data`.
    let dataDirectory: URL
    /// `tally serve --config`.
    let configFile: URL
    /// The keys the configuration lists.
    let keys: ServerKeys
    /// The authority signing the sandbox's transactions (its root is in `verification.roots`).
    let authority: SandboxCertificateAuthority
    /// The running server (replaced by ``restart()``).
    private(set) var server: ServerProcess
    /// A client for the running server.
    private(set) var client: APIClient
    /// Added to each server's environment.
    var environment: [String: String]

    /// Writes the configuration and starts the server.
    init(_ options: ServerOptions = ServerOptions(), environment: [String: String] = [:]) throws {
        self.environment = environment
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-serve-\(UUID().uuidString)")
        dataDirectory = directory.appendingPathComponent("data")
        configFile = directory.appendingPathComponent("tally-server.json")
        keys = ServerKeys()
        authority = try SandboxCertificateAuthority.generate(now: Date())
        do {
            try Self.write(options, keys: keys, authority: authority, into: directory, configFile: configFile)
            server = try ServerProcess(data: dataDirectory, config: configFile, environment: environment)
        } catch {
            // deinit does not run for an initializer that throws: clean up here.
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        client = APIClient(port: server.port, keys: keys)
    }

    /// Copies the Market example beside the configuration, writes the sandbox root and the configuration.
    private static func write(_ options: ServerOptions, keys: ServerKeys, authority: SandboxCertificateAuthority,
                              into directory: URL, configFile: URL) throws {
        let files = FileManager.default
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["Market.storekit", "tally.json", "offerings.json"] {
            try files.copyItem(at: TestPaths.market.appendingPathComponent(name),
                               to: directory.appendingPathComponent(name))
        }
        try Data(authority.rootPEM.utf8).write(to: directory.appendingPathComponent("sandbox-root.pem"))
        let document = options.document(keys: keys, rootFile: "sandbox-root.pem")
        try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
            .write(to: configFile)
    }

    deinit {
        client.session.finishTasksAndInvalidate()
        try? server.killNow()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts a new server on the same data directory and configuration (the old one must have stopped).
    func restart() throws {
        guard !server.isRunning else { throw HarnessError("restart() while the server (pid \(server.pid)) still runs") }
        server = try ServerProcess(data: dataDirectory, config: configFile, environment: environment)
        client.session.finishTasksAndInvalidate()
        client = APIClient(port: server.port, keys: keys)
    }

    /// A Market sandbox signing with this fixture's authority.
    func market(start: Date = Date().addingTimeInterval(-60)) throws -> MarketStore {
        try MarketStore(authority: authority, start: start)
    }
}
