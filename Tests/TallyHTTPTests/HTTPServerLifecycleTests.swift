import Foundation
import Testing
import TallyHTTP

/// Starting, port selection, errors at start, stopping.
@Suite struct HTTPServerLifecycleTests {
    @Test func stopClosesThePortAndIsIdempotent() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let port = server.port
        let client = try RawHTTPClient(port: port)
        try client.send(rawGet("/before"))
        #expect(try client.readResponse().status == 200)
        #expect(server.isRunning)
        server.stop()
        #expect(!server.isRunning)
        #expect(throws: RawClientError.self) { try RawHTTPClient(port: port) }
        server.stop()
        #expect(client.isClosedByServer())
    }

    @Test func aTakenPortIsReportedAsInUse() throws {
        let first = try RecordingHandler().startServer()
        let configuration = HTTPServer.Configuration(port: first.port, threads: 1)
        #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: first.port)) {
            _ = try HTTPServer(configuration: configuration) { _ in HTTPResponse(status: 200) }
        }
    }

    @Test func aNonNumericHostIsRejected() {
        #expect(throws: HTTPServerError.invalidAddress("localhost")) {
            _ = try HTTPServer(configuration: .init(host: "localhost", port: 0)) { _ in HTTPResponse(status: 200) }
        }
    }

    @Test func outOfRangeNumbersAreRejected() {
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(configuration: .init(port: 0, threads: 0)) { _ in HTTPResponse(status: 200) }
        }
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(configuration: .init(port: 0, maxBodyBytes: -1)) { _ in HTTPResponse(status: 200) }
        }
    }

    @Test func ipv6LoopbackListens() throws {
        let server: HTTPServer
        do {
            server = try HTTPServer(configuration: .init(host: "[::1]", port: 0, threads: 1)) { _ in
                HTTPResponse(status: 204)
            }
        } catch .addressNotAvailable {
            return  // a machine without IPv6 loopback
        }
        #expect(server.port != 0)
    }
}
