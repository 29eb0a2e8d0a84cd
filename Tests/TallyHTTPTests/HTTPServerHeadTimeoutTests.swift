import Foundation
import Testing
@testable import TallyHTTP

/// The head deadline (``HTTPServer/Configuration/headTimeoutSeconds``) and the per-network connection limit.
@Suite struct HTTPServerHeadTimeoutTests {
    /// A one-thread server with a 30-second idle timeout and the given head timeout, answering through `recorder`.
    func server(headTimeoutSeconds: Int, _ recorder: RecordingHandler) throws -> HTTPServer {
        let configuration = HTTPServer.Configuration(port: 0, threads: 1, connectionTimeoutSeconds: 30,
                                                     headTimeoutSeconds: headTimeoutSeconds)
        return try HTTPServer(configuration: configuration) { request in recorder.handle(request) }
    }

    /// A client dripping a header byte every half second (each byte resets the idle timer) is closed at the
    /// 2-second head deadline, while another client is answered.
    @Test func aDrippedHeadIsClosedAtItsDeadline() throws {
        let recorder = RecordingHandler()
        let server = try server(headTimeoutSeconds: 2, recorder)
        let dripper = try RawHTTPClient(port: server.port)
        let start = Date()
        dripper.sendQuietly(Array("GET /drip HTTP/1.1\r\nHost: x\r\nX-Drip: ".utf8))
        var closedAfter: Double?
        while closedAfter == nil && Date().timeIntervalSince(start) < 10 {
            usleep(250_000)
            dripper.sendQuietly([UInt8(ascii: "a")])
            usleep(250_000)
            if !dripper.isOpen() { closedAfter = Date().timeIntervalSince(start) }
        }
        let after = try #require(closedAfter, "the dripping connection was open after 10 s")
        #expect(after >= 1.5 && after < 4, "closed after \(after) s; the head deadline is 2 s")
        let other = try RawHTTPClient(port: server.port)
        try other.send(rawGet("/other"))
        #expect(try other.readResponse().text == "GET /other 0")
        #expect(recorder.requests.map(\.path) == ["/other"], "the dripped request never reached the handler")
    }

    /// The deadline of a later request on a kept-alive connection starts after the idle timeout: a client that
    /// waits longer than the head timeout between two requests is still answered.
    @Test func aKeptAliveConnectionMayWaitBetweenRequests() throws {
        let recorder = RecordingHandler()
        let server = try server(headTimeoutSeconds: 1, recorder)
        let client = try RawHTTPClient(port: server.port)
        try client.send(rawGet("/first"))
        #expect(try client.readResponse().text == "GET /first 0")
        Thread.sleep(forTimeInterval: 2)
        try client.send(rawGet("/second"))
        #expect(try client.readResponse().text == "GET /second 0")
    }

    /// One IPv6 /64 is one client: its addresses share the per-address connection limit.
    @Test func anIPv6Slash64SharesOneConnectionLimit() throws {
        let watch = try ConnectionWatch(configuration: .init(port: 0, threads: 1, headTimeoutSeconds: 0,
                                                             connectionLimitPerAddress: 2))
        let first = try #require(watch.opened(socket: -1, network: ClientNetwork(address: "2001:db8::1")))
        #expect(watch.opened(socket: -1, network: ClientNetwork(address: "2001:db8::ffff:2")) != nil)
        #expect(watch.opened(socket: -1, network: ClientNetwork(address: "2001:db8::3")) == nil,
                "a third connection from the same /64")
        #expect(watch.opened(socket: -1, network: ClientNetwork(address: "2001:db8:0:1::1")) != nil,
                "the next /64 is another client")
        watch.closed(first)
        #expect(watch.opened(socket: -1, network: ClientNetwork(address: "2001:db8::4")) != nil,
                "a closed connection frees its slot")
        #expect(watch.count == 3, "first and the refused one do not count")
        watch.stop()
    }
}

#if os(Linux)
/// The per-network connection limit over IPv6 through a real server on `::1` (the loopback /64 is `::/64`).
@Suite struct HTTPServerIPv6ConnectionLimitTests {
    /// A TCP connection to `[::1]:port`; nil when the system has no IPv6 loopback.
    final class IPv6Client {
        let descriptor: Int32

        init?(port: UInt16) {
            let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return nil }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
            guard connected == 0 else {
                close(descriptor)
                return nil
            }
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }

        /// Sends `text` (no SIGPIPE) and reads until the server closes the connection or the read timeout.
        func exchange(_ text: String) -> String {
            _ = Array(text.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var all: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return String(decoding: all, as: UTF8.self) }
                all.append(contentsOf: chunk[..<count])
            }
        }
    }

    @Test(.enabled(if: FileManager.default.contents(atPath: "/proc/net/if_inet6")?.isEmpty == false))
    func connectionsFromOneIPv6NetworkAreCapped() throws {
        let recorder = RecordingHandler()
        let configuration = HTTPServer.Configuration(host: "::1", port: 0, threads: 1, connectionLimit: 10,
                                                     connectionLimitPerAddress: 2)
        let server = try HTTPServer(configuration: configuration) { request in recorder.handle(request) }
        // Served over IPv6; the server closes it (and stops counting it) before this client reads the end.
        let first = try #require(IPv6Client(port: server.port))
        #expect(first.exchange(rawGet("/first", extraHeaders: "Connection: close\r\n")).hasPrefix("HTTP/1.1 200 "))
        let held = try (0..<2).map { _ in try #require(IPv6Client(port: server.port)) }
        for client in held {
            _ = Array("GET /held HTTP/1.1\r\nHost: x\r\nX-Wait: ".utf8).withUnsafeBytes {
                send(client.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
        }
        usleep(200_000)
        let third = try #require(IPv6Client(port: server.port))
        #expect(third.exchange(rawGet("/third", extraHeaders: "Connection: close\r\n")).isEmpty,
                "a third connection from ::/64 was served")
        _ = held
        #expect(recorder.requests.map(\.path) == ["/first"])
    }
}
#endif
