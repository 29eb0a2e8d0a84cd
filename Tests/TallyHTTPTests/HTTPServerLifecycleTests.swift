import Foundation
import Testing
@testable import TallyHTTP

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

/// Every request's state is released, however the request ended.
@Suite struct HTTPServerReleaseTests {
    @Test func everyRequestStateIsReleasedByStop() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer(maxBodyBytes: 100)
        let keepAlive = try RawHTTPClient(port: server.port)
        for index in 0..<5 {
            try keepAlive.send(rawGet("/\(index)"))
            _ = try keepAlive.readResponse()
        }
        let oversize = try RawHTTPClient(port: server.port)
        try oversize.send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
        _ = try oversize.readResponse()
        let broken = try RawHTTPClient(port: server.port)
        try broken.send("NOT HTTP\r\n\r\n")
        _ = try broken.readResponse()
        // A body that never finishes, and a connection left mid-request.
        let abandoned = try RawHTTPClient(port: server.port)
        try abandoned.send("POST /half HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n0123456789")
        let aborted = try RawHTTPClient(port: server.port)
        try aborted.send("POST /gone HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n0123")
        _ = consume aborted
        let idle = try RawHTTPClient(port: server.port)
        try idle.send(rawGet("/last"))
        _ = try idle.readResponse()
        server.stop()
        #expect(server.requestsInFlight == 0)
        #expect(recorder.requests.count == 6)
        _ = abandoned
    }
}
