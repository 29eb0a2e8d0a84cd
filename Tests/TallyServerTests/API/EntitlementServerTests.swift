import Foundation
import TallyCore
import TallyHTTP
import Testing
@testable import TallyServer

@Suite("EntitlementServer")
struct EntitlementServerTests {
    @Test("it creates DIR/tally.sqlite, listens on a free port for port 0, and stops")
    func startAndStop() throws {
        let directory = try TemporaryDirectory()
        let data = (directory.path as NSString).appendingPathComponent("data")
        let configuration = ServerConfiguration(
            listen: ListenAddress(host: "127.0.0.1", port: 0), catalog: try ServerFixture.catalog(),
            appConfiguration: try ServerFixture.appConfiguration(),
            verification: VerificationSettings(bundleId: "com.example.market", environments: [.sandbox]),
            keys: ServerFixture.keys, threads: 1)
        let server = try EntitlementServer(configuration: configuration, dataDirectory: data)
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
            _ = try EntitlementServer(configuration: configuration, dataDirectory: directory.path)
            Issue.record("the server started")
        } catch {
            #expect(error.isConfigurationProblem)
            #expect(error.description.contains("no-such-host"))
        }
    }
}
