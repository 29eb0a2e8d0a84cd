import Foundation
import TallyCore
import TallyHTTP
import TallySQLiteStore
@testable import TallyServer
import TallyStorage
import Testing

@Suite("EntitlementServer")
struct EntitlementServerTests {
    @Test("over the SQLite store in DIR/tally.sqlite it listens on a free port for port 0, and stops")
    func startAndStop() throws {
        let directory = try TemporaryDirectory()
        let data = (directory.path as NSString).appendingPathComponent("data")
        let configuration = ServerConfiguration(
            listen: ListenAddress(host: "127.0.0.1", port: 0), catalog: try ServerFixture.catalog(),
            appConfiguration: try ServerFixture.appConfiguration(),
            verification: VerificationSettings(bundleId: "com.example.market", environments: [.sandbox]),
            keys: ServerFixture.keys, threads: 1)
        let store = try SQLiteCustomerStore(directory: data, credits: configuration.credits)
        let server = try EntitlementServer(configuration: configuration, store: store)
        #expect(server.port > 0)
        #expect(server.address.host == "127.0.0.1")
        #expect(FileManager.default.fileExists(atPath: (data as NSString).appendingPathComponent("tally.sqlite")))
        server.stop()
        server.stop()
    }

    @Test("a host that is not a numeric address is a configuration problem")
    func badHost() throws {
        let directory = try TemporaryDirectory()
        let configuration = ServerConfiguration(
            listen: ListenAddress(host: "no-such-host", port: 0), catalog: try ServerFixture.catalog(),
            appConfiguration: try ServerFixture.appConfiguration(),
            verification: VerificationSettings(bundleId: "com.example.market", environments: [.sandbox]),
            keys: ServerFixture.keys, threads: 1)
        do {
            let store = try SQLiteCustomerStore(directory: directory.path, credits: configuration.credits)
            _ = try EntitlementServer(configuration: configuration, store: store)
            Issue.record("the server started")
        } catch let error as EntitlementServerError {
            #expect(error.isConfigurationProblem)
            #expect(error.description.contains("no-such-host"))
        }
    }
}
