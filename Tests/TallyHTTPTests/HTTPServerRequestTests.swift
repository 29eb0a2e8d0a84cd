import Foundation
import Testing
import TallyHTTP

/// What the handler receives: the raw path, decoded query, lower-cased headers.
@Suite struct HTTPServerRequestTests {
    @Test func pathArrivesStillPercentEncoded() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let client = try RawHTTPClient(port: server.port)
        try client.send(rawGet("/v1/customers/a%2Fb%20c/%C3%A9t%C3%A9+x"))
        #expect(try client.readResponse().status == 200)
        let path = try #require(recorder.requests.first?.path)
        #expect(path == "/v1/customers/a%2Fb%20c/%C3%A9t%C3%A9+x")
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(HTTPRequest.decodePathSegment)
        #expect(segments == ["", "v1", "customers", "a/b c", "été+x"])
    }

    @Test func longEncodedUnicodePathFitsInTheDefaultMemoryLimit() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let userId = String(repeating: "ü€", count: 2000)  // 10000 bytes of UTF-8, 30000 encoded
        let encoded = try #require(userId.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let client = try RawHTTPClient(port: server.port)
        try client.send(rawGet("/v1/customers/\(encoded)"))
        #expect(try client.readResponse().status == 200)
        let path = try #require(recorder.requests.first?.path)
        #expect(path == "/v1/customers/\(encoded)")
        #expect(path.split(separator: "/").last.flatMap(HTTPRequest.decodePathSegment) == userId)
    }

    @Test func queryIsDecoded() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let client = try RawHTTPClient(port: server.port)
        try client.send(rawGet("/history?cursor=a%2Bb%3D&name=two+words%21&bad=%ZZx&flag&dup=1&dup=2&%C3%A9=%E2%82%AC"))
        #expect(try client.readResponse().status == 200)
        let request = try #require(recorder.requests.first)
        #expect(request.path == "/history")
        #expect(request.query["cursor"] == "a+b=")
        #expect(request.query["name"] == "two words!")
        #expect(request.query["bad"] == "%ZZx")
        #expect(request.query["flag"] == "")
        #expect(request.query["dup"] == "2")
        #expect(request.query["é"] == "€")
    }

    @Test func headersAreKeyedByLowerCasedName() throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let client = try RawHTTPClient(port: server.port)
        try client.send(rawGet("/h", extraHeaders: "Authorization: Bearer tk_1\r\nX-Tag: a\r\nx-tag: b\r\n"))
        #expect(try client.readResponse().status == 200)
        let request = try #require(recorder.requests.first)
        #expect(request.headers["authorization"] == "Bearer tk_1")
        #expect(request.header("X-TAG") == "a, b")
        #expect(request.headers["host"] == "127.0.0.1")
    }
}
