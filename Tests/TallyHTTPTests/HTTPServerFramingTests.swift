import Foundation
import Testing
import TallyHTTP

/// Heads that frame their body ambiguously get one answer at once and a closed connection (RFC 9112 §6.1, §6.3);
/// the handler never sees them.
@Suite struct HTTPServerFramingTests {
    static let post = "POST /in HTTP/1.1\r\nHost: x\r\n"

    /// (what, head fields after the request line and Host, expected status)
    static let refused: [(String, String, Int)] = [
        ("Transfer-Encoding: identity", "Transfer-Encoding: identity\r\n", 501),
        ("Transfer-Encoding: gzip, chunked", "Transfer-Encoding: gzip, chunked\r\n", 501),
        ("Transfer-Encoding with a trailing space", "Transfer-Encoding: chunked \r\n", 400),
        ("two Transfer-Encoding fields", "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", 400),
        ("Content-Length and Transfer-Encoding", "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n", 400),
        ("Transfer-Encoding and Content-Length", "Transfer-Encoding: chunked\r\nContent-Length: 2\r\n", 400),
        ("two different Content-Lengths", "Content-Length: 2\r\nContent-Length: 3\r\n", 400),
        ("the same Content-Length twice", "Content-Length: 2\r\nContent-Length: 2\r\n", 400),
        ("a second Host", "Host: y\r\nContent-Length: 2\r\n", 400),
        ("a space before a header's colon", "Transfer-Encoding : chunked\r\nContent-Length: 2\r\n", 400),
    ]

    @Test(arguments: 0..<refused.count)
    func anAmbiguousHeadGetsOneAnswerAtOnceAndTheConnectionCloses(_ index: Int) throws {
        let (what, fields, status) = Self.refused[index]
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let client = try RawHTTPClient(port: server.port)
        let start = ContinuousClock.now
        // "{}" could be a body by Content-Length, or the start of a chunk: the server must not wait for more.
        try client.send(Self.post + fields + "\r\n{}")
        let bytes = try client.readToEnd()
        let elapsed = ContinuousClock.now - start
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 \(status) "), "\(what): \(text)")
        #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "\(what): more than one status line: \(text)")
        #expect(elapsed < .seconds(5), "\(what): answered after \(elapsed)")
        #expect(recorder.requests.isEmpty, "\(what) reached the handler")
    }

    @Test func anHTTP11RequestWithoutHostGets400() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /nohost HTTP/1.1\r\n\r\n")
        let text = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 "), "\(text)")
        #expect(text.contains("Host"))
        #expect(recorder.requests.isEmpty)
        // HTTP/1.0 has no Host requirement.
        let old = try RawHTTPClient(port: server.port)
        try old.send("GET /old HTTP/1.0\r\n\r\n")
        #expect(try old.readResponse().text == "GET /old 0")
    }

    @Test func theRefusalCallbackShapesTheAnswer() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer(refusal: { request, refusal in
            HTTPResponse(status: refusal.status, body: Array("\(request.path) \(refusal)".utf8))
        })
        let client = try RawHTTPClient(port: server.port)
        try client.send(Self.post + "Transfer-Encoding: gzip\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 501)
        #expect(response.text.hasPrefix("/in unsupportedTransferCoding("), "\(response.text)")
        #expect(response.headers["connection"] == "close")
    }

    @Test func chunkedAloneIsStillAccepted() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let client = try RawHTTPClient(port: server.port)
        try client.send(Self.post + "Transfer-Encoding: Chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
        #expect(try client.readResponse().text == "POST /in 2")
    }

    /// libmicrohttpd 0.9.75 refuses a malformed Content-Length itself, before any callback of ours, and its
    /// state machine then builds the response head a second time (connection.c: the HEADERS_RECEIVED case
    /// overwrites the error's state). Nothing in its API reaches that path; when a fixed libmicrohttpd is
    /// installed this known issue stops reproducing and the test says so.
    @Test(arguments: ["-1", "abc", "22, 22"])
    func aMalformedContentLengthGetsOne400(_ value: String) throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let client = try RawHTTPClient(port: server.port)
        try client.send(Self.post + "Content-Length: \(value)\r\n\r\n{}")
        let text = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 "), "\(text)")
        #expect(recorder.requests.isEmpty)
        withKnownIssue("libmicrohttpd 0.9.75 sends the head of its own 400 twice") {
            #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "\(text)")
        }
    }
}
