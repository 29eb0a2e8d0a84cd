import Foundation
import Testing
@testable import TallyServer

@Suite("tally-server.json: limits.maxConcurrentReconciles")
struct ReconcileLimitConfigurationTests {
    static let files = HardeningConfigurationTests.files
    static let keys = #""keys":[{"name":"app","role":"public","sha256":"\#(HardeningConfigurationTests.hash)"}]"#

    @Test("4 by default, as docs/server.md says; a set value is read and sizes the blocking pool beside writeThreads")
    func readAndDefault() throws {
        let (defaults, _) = try ConfigurationTests().load("{\(Self.files),\(Self.keys)}")
        #expect(try defaults.get().limits.maxConcurrentReconciles == 4)
        let (set, _) = try ConfigurationTests().load("""
            {\(Self.files),\(Self.keys),"writeThreads":8,"limits":{"maxConcurrentReconciles":2}}
            """)
        let configuration = try set.get()
        #expect(configuration.limits.maxConcurrentReconciles == 2)
        #expect(EntitlementServer.blockingRequests(configuration)?.threads == 10)
    }

    @Test("0 and values past 256 are problems at their JSON path", arguments: ["0", "257", "\"4\""])
    func outOfRange(_ value: String) throws {
        let (result, _) = try ConfigurationTests().load("""
            {\(Self.files),\(Self.keys),"limits":{"maxConcurrentReconciles":\(value)}}
            """)
        guard case .failure(let error) = result else {
            Issue.record("the configuration loaded with maxConcurrentReconciles \(value)")
            return
        }
        #expect(error.problems.map(\.path) == ["limits.maxConcurrentReconciles"], "\(error.problems)")
    }
}
