import Foundation
import Testing
import TallyHTTP

/// Bodies over the limit, malformed requests and handler mistakes: always an answer, never a crash.
@Suite struct HTTPServerLimitTests {
    @Test func oversizeContentLengthGets413WithoutSendingTheBody() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer(maxBodyBytes: 1024)
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.text == "the body is larger than 1024 bytes\n")
        #expect(client.isClosedByServer())
        #expect(recorder.requests.isEmpty)
    }

    @Test func chunkedBodyPastTheLimitGetsTheCustomRejection() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer(maxBodyBytes: 10, refusal: { request, refusal in
            HTTPResponse(status: refusal.status, headers: [HTTPResponse.Field("Content-Type", "application/json")],
                         body: Array("{\"path\":\"\(request.path)\"}".utf8))
        })
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /grow HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        try client.send("8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.text == "{\"path\":\"/grow\"}")
        #expect(recorder.requests.isEmpty)
        // The whole body was read (and dropped), so the connection stays usable.
        try client.send(rawGet("/after"))
        #expect(try client.readResponse().text == "GET /after 0")
    }

    @Test func bodyExactlyAtTheLimitIsAccepted() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer(maxBodyBytes: 10)
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /edge HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789")
        #expect(try client.readResponse().text == "POST /edge 10")
    }

    @Test func malformedRequestLineGets400AndTheServerKeepsServing() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let broken = try RawHTTPClient(port: server.port)
        try broken.send("THIS IS NOT HTTP\r\n\r\n")
        #expect(try broken.readResponse().status == 400)
        let next = try RawHTTPClient(port: server.port)
        try next.send(rawGet("/ok"))
        #expect(try next.readResponse().text == "GET /ok 0")
        #expect(recorder.requests.map(\.path) == ["/ok"])
    }

    @Test func invalidStatusFromTheHandlerBecomes500() throws {
        let server = try HTTPServer(configuration: .init(port: 0, threads: 1)) { _ in HTTPResponse(status: 42) }
        let client = try RawHTTPClient(port: server.port)
        try client.send(rawGet("/"))
        let response = try client.readResponse()
        #expect(response.status == 500)
        #expect(response.text.contains("status 42"))
    }

    @Test func headerWithLineBreakFromTheHandlerBecomes500() throws {
        let server = try HTTPServer(configuration: .init(port: 0, threads: 1)) { _ in
            HTTPResponse(status: 200, headers: [HTTPResponse.Field("X-Bad", "a\r\nInjected: yes")])
        }
        let client = try RawHTTPClient(port: server.port)
        try client.send(rawGet("/"))
        let response = try client.readResponse()
        #expect(response.status == 500)
        #expect(response.headers["injected"] == nil)
    }

    @Test func aContentLengthFromTheHandlerIsReplacedByTheRealOne() throws {
        let server = try HTTPServer(configuration: .init(port: 0, threads: 1)) { _ in
            HTTPResponse(status: 200, headers: [HTTPResponse.Field("CONTENT-length", "999")], body: Array("four".utf8))
        }
        let client = try RawHTTPClient(port: server.port)
        try client.send(rawGet("/one") + rawGet("/two"))
        #expect(try client.readResponse().text == "four")
        let second = try client.readResponse()
        #expect(second.headers["content-length"] == "4")
        #expect(second.text == "four")
    }
}
