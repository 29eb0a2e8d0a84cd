import Foundation
import Synchronization
import Testing
@testable import TallyHTTP

/// ``HTTPServer/BlockingRequests``: handlers that wait run on their own threads, with their connection
/// suspended, so the worker threads keep serving.
@Suite struct HTTPServerBlockingRequestTests {
    /// A gate the POST handler waits at until the test opens it, counting who arrived.
    final class Gate: Sendable {
        let open = DispatchSemaphore(value: 0)
        let arrived = Mutex(0)

        func pass() {
            arrived.withLock { $0 += 1 }
            open.wait()
            open.signal()  // the next one passes too
        }

        func waitForArrivals(_ count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while arrived.withLock({ $0 }) < count, Date() < deadline { usleep(1_000) }
            return arrived.withLock { $0 } >= count
        }
    }

    private func rawPost(_ path: String) -> String {
        "POST \(path) HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nok"
    }

    private func start(_ gate: Gate, threads: Int = 1, blocking: Int = 8) throws -> HTTPServer {
        let configuration = HTTPServer.Configuration(
            port: 0, threads: threads,
            blockingRequests: HTTPServer.BlockingRequests(threads: blocking) { method, _ in method == "POST" })
        return try HTTPServer(configuration: configuration) { request in
            if request.method == "POST" { gate.pass() }
            return HTTPResponse(status: 200, body: Array("\(request.method) \(request.path)".utf8))
        }
    }

    @Test func aGetIsAnsweredWhileEveryWorkerThreadsPostsWait() throws {
        let gate = Gate()
        let server = try start(gate)  // one worker thread: without the pool, a waiting POST would hold it
        let posters = try (0..<6).map { _ in try RawHTTPClient(port: server.port) }
        for (index, client) in posters.enumerated() { try client.send(rawPost("/write/\(index)")) }
        #expect(gate.waitForArrivals(6), "six POSTs wait at once on the pool")

        let reader = try RawHTTPClient(port: server.port)
        try reader.send(rawGet("/read"))
        let read = try reader.readResponse()
        #expect(read.status == 200 && read.text == "GET /read", "the worker served a GET while the POSTs waited")

        gate.open.signal()
        for (index, client) in posters.enumerated() {
            let answer = try client.readResponse()
            #expect(answer.status == 200 && answer.text == "POST /write/\(index)")
        }
        // Keep-alive still works on a connection that was suspended.
        try posters[0].send(rawGet("/after"))
        #expect(try posters[0].readResponse().text == "GET /after")
        server.stop()
        #expect(server.requestsInFlight == 0)
    }

    @Test func aGracefulStopLetsTheWaitingPostsFinish() throws {
        let gate = Gate()
        let server = try start(gate)
        let posters = try (0..<3).map { _ in try RawHTTPClient(port: server.port) }
        for client in posters { try client.send(rawPost("/write")) }
        #expect(gate.waitForArrivals(3))
        let stopped = DispatchSemaphore(value: 0)
        Thread { server.stop(gracePeriod: 5); stopped.signal() }.start()
        usleep(100_000)
        gate.open.signal()
        for client in posters {
            let answer = try client.readResponse()
            #expect(answer.status == 200 && answer.headers["connection"]?.lowercased() == "close")
        }
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(server.requestsInFlight == 0)
    }
}
