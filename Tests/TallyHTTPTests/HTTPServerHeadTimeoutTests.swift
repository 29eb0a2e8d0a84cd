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
