import Foundation
import Testing
import TallyHTTP

/// Connection handling over a raw socket: keep-alive, pipelining, requests split into many writes.
@Suite struct HTTPServerKeepAliveTests {
    @Test func twoRequestsOnOneConnectionGetTwoResponses() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let client = try RawHTTPClient(port: server.port)
        try client.send(rawGet("/first"))
        let first = try client.readResponse()
        try client.send(rawGet("/second"))
        let second = try client.readResponse()
        #expect(first.status == 200)
        #expect(first.text == "GET /first 0")
        #expect(first.headers["x-echo"] == "yes")
        #expect(second.text == "GET /second 0")
        #expect(recorder.requests.map(\.path) == ["/first", "/second"])
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let client = try RawHTTPClient(port: server.port)
        let body = "hello"
        try client.send(
            rawGet("/a") + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                + rawGet("/c"))
        let responses = try (0..<3).map { _ in try client.readResponse() }
        #expect(responses.map(\.text) == ["GET /a 0", "POST /b 5", "GET /c 0"])
        #expect(recorder.requests.last?.method == "GET")
        #expect(recorder.requests.dropFirst().first.map { String(decoding: $0.body, as: UTF8.self) } == "hello")
    }

    @Test func requestWrittenInSmallPiecesArrivesWhole() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let client = try RawHTTPClient(port: server.port)
        let body = String(repeating: "0123456789", count: 2000)
        let wire = Array("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        var offset = 0
        var piece = 1
        while offset < wire.count {
            let end = min(wire.count, offset + piece)
            try client.send(Array(wire[offset..<end]))
            offset = end
            piece = piece * 3 + 1
            usleep(2_000)
        }
        let response = try client.readResponse()
        #expect(response.text == "POST /slow 20000")
        #expect(recorder.requests.first?.body == Array(body.utf8))
    }

    @Test func chunkedBodyIsReassembled() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        try client.send("5\r\nhello\r\n")
        try client.send("6\r\n world\r\n0\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.text == "POST /chunked 11")
        #expect(recorder.requests.first?.body == Array("hello world".utf8))
    }
}
