import Foundation
import Testing
import TallyHTTP

/// Per-request body limits, the per-address connection limit and the graceful stop.
@Suite struct HTTPServerConnectionTests {
    @Test func theBodyLimitIsChosenPerRequestBeforeTheBodyIsRead() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer(maxBodyBytes: 1000, bodyLimit: { method, path in
            path == "/small" ? 10 : (path == "/huge" ? 5000 : 1000)
        })
        let small = try RawHTTPClient(port: server.port)
        try small.send("POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n")
        let refused = try small.readResponse()
        #expect(refused.status == 413)
        #expect(refused.text == "the body is larger than 10 bytes\n")
        #expect(small.isClosedByServer())
        let other = try RawHTTPClient(port: server.port)
        try other.send("POST /other HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n0123456789a")
        #expect(try other.readResponse().text == "POST /other 11")
        // A route limit above maxBodyBytes is held to it.
        let huge = try RawHTTPClient(port: server.port)
        try huge.send("POST /huge HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n")
        #expect(try huge.readResponse().text == "the body is larger than 1000 bytes\n")
        #expect(recorder.requests.map(\.path) == ["/other"])
    }

    #if os(Linux)
    @Test func oneAddressCannotTakeEveryConnection() throws {
        let recorder = RecordingHandler()
        let configuration = HTTPServer.Configuration(port: 0, threads: 1, connectionLimit: 10,
                                                     connectionLimitPerAddress: 3)
        let server = try HTTPServer(configuration: configuration) { request in recorder.handle(request) }
        var held: [RawHTTPClient] = []
        for _ in 0..<3 {
            let client = try RawHTTPClient(port: server.port)
            try client.send("GET /slow HTTP/1.1\r\nHost: x\r\nX-Wait: ")
            held.append(client)
        }
        let fourth = try RawHTTPClient(port: server.port)
        try? fourth.send(rawGet("/fourth"))
        #expect(fourth.isClosedByServer(), "a fourth connection from 127.0.0.1 was served")
        let elsewhere = try RawHTTPClient(port: server.port, from: "127.0.0.2")
        try elsewhere.send(rawGet("/elsewhere"))
        #expect(try elsewhere.readResponse().text == "GET /elsewhere 0")
        _ = held
    }
    #endif

    @Test func aGracefulStopRefusesNewConnectionsAndFinishesTheRequestInFlight() throws {
        let release = DispatchSemaphore(value: 0)
        let server = try HTTPServer(configuration: .init(port: 0, threads: 2)) { request in
            if request.path == "/slow" { release.wait() }
            return HTTPResponse(status: 200, body: Array("done \(request.path)".utf8))
        }
        let port = server.port
        let inFlight = try RawHTTPClient(port: port)
        try inFlight.send(rawGet("/slow"))
        try waitUntil { server.requestsInFlight == 1 }
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.stop(gracePeriod: 20)
            stopped.signal()
        }
        try waitUntil { (try? RawHTTPClient(port: port)) == nil }
        #expect(stopped.wait(timeout: .now() + 0.2) == .timedOut, "stop did not wait for the request in flight")
        release.signal()
        let response = try inFlight.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "done /slow")
        #expect(response.headers["connection"] == "close")
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(server.requestsInFlight == 0)
        #expect(!server.isRunning)
    }

    @Test func aGracefulStopEndsAfterItsGracePeriod() throws {
        let server = try HTTPServer(configuration: .init(port: 0, threads: 1)) { _ in HTTPResponse(status: 200) }
        let stuck = try RawHTTPClient(port: server.port)
        // The head is complete, the body never comes: the request stays in flight.
        try stuck.send("POST /stuck HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01")
        try waitUntil { server.requestsInFlight == 1 }
        let start = ContinuousClock.now
        server.stop(gracePeriod: 0.3)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(10), "\(elapsed)")
        #expect(stuck.isClosedByServer())
    }
}

/// Polls `condition` every 10 ms for at most 10 s.
func waitUntil(_ condition: () -> Bool) throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw RawClientError("condition not met within 10 s") }
        usleep(10_000)
    }
}
