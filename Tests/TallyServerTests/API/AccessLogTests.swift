import Foundation
import Testing
@testable import TallyServer

@Suite("Access log")
struct AccessLogTests {
    @Test("one line per request: method, route template, status, milliseconds; never the appUserId")
    func linePerRequest() throws {
        let fixture = try ServerFixture()
        _ = fixture.send("GET", "/v1/customers/jane.doe%40example.com")
        _ = fixture.send("GET", "/v1/customers/jane.doe%40example.com/history", key: ServerFixture.publicKey)
        _ = fixture.send("BREW", "/nowhere")  // unusual methods are "other", as in the metrics
        let lines = fixture.accessLogged.lines
        #expect(lines.count == 3)
        let expected = ["GET /v1/customers/{appUserId} 200 ", "GET /v1/customers/{appUserId}/history 403 ",
                        "other unmatched 404 "]
        for (line, prefix) in zip(lines, expected) {
            #expect(line.hasPrefix(prefix), "\(line)")
            #expect(line.hasSuffix("ms"))
        }
        #expect(!lines.joined().contains("jane"))
        #expect(fixture.logged.lines.isEmpty)
    }
}
