import Foundation
import Synchronization
import Testing
@testable import TallyHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads of the blocking pool that marked their thread-local state, and those whose state was freed.
private let markedThreads = Atomic<Int>(0)
private let freedThreads = Atomic<Int>(0)

/// `stop()` returns only once every thread of the blocking pool has ended, thread-local state freed: a process
/// exits right after it, and libraries' exit handlers (OpenSSL's) must not race threads still ending.
@Suite struct HTTPServerStopThreadTests {
    @Test func stopReturnsAfterEveryPoolThreadsThreadLocalStateIsFreed() throws {
        var key = pthread_key_t()
        // A slow destructor, as freeing a library's thread state can be: a thread is still ending 50 ms after
        // it was told to quit.
        #if canImport(Darwin)
        let destructor: @convention(c) (UnsafeMutableRawPointer) -> Void = { _ in
            usleep(50_000)
            freedThreads.add(1, ordering: .sequentiallyConsistent)
        }
        #else
        let destructor: @convention(c) (UnsafeMutableRawPointer?) -> Void = { _ in
            usleep(50_000)
            freedThreads.add(1, ordering: .sequentiallyConsistent)
        }
        #endif
        #expect(pthread_key_create(&key, destructor) == 0)
        let threadKey = key
        let gate = HTTPServerBlockingRequestTests.Gate()
        let pool = 8
        let configuration = HTTPServer.Configuration(
            port: 0, threads: 1,
            blockingRequests: HTTPServer.BlockingRequests(threads: pool) { method, _ in method == "POST" })
        let server = try HTTPServer(configuration: configuration) { request in
            if pthread_getspecific(threadKey) == nil {
                markedThreads.add(1, ordering: .sequentiallyConsistent)
                pthread_setspecific(threadKey, UnsafeRawPointer(bitPattern: 1))
            }
            gate.pass()
            return HTTPResponse(status: 200, body: Array("ok".utf8))
        }
        // Every pool thread holds a request at once, so every one marks its state.
        let posters = try (0..<pool).map { _ in try RawHTTPClient(port: server.port) }
        for client in posters { try client.send("POST /w HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nok") }
        #expect(gate.waitForArrivals(pool))
        gate.open.signal()
        for client in posters { #expect(try client.readResponse().status == 200) }
        server.stop()
        let marked = markedThreads.load(ordering: .sequentiallyConsistent)
        #expect(marked == pool, "each request ran on a thread of its own")
        #expect(freedThreads.load(ordering: .sequentiallyConsistent) == marked,
                "stop() returned while pool threads were still ending")
    }
}

extension HTTPServerStopThreadTests {
    /// A server that cannot listen ends the blocking pool it had started (joined, not left waiting) and says why.
    @Test func aServerThatCannotListenEndsItsBlockingPool() throws {
        let first = try HTTPServer(configuration: HTTPServer.Configuration(port: 0)) { _ in HTTPResponse(status: 200) }
        defer { first.stop() }
        let taken = HTTPServer.Configuration(
            port: first.port, threads: 1,
            blockingRequests: HTTPServer.BlockingRequests(threads: 8) { _, _ in true })
        #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: first.port)) {
            _ = try HTTPServer(configuration: taken) { _ in HTTPResponse(status: 200) }
        }
    }
}
