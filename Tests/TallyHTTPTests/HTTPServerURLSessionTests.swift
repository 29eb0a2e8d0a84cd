import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TallyHTTP

/// The server as an ordinary HTTP client (URLSession) sees it.
@Suite struct HTTPServerURLSessionTests {
    private func fetch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (data, http)
    }

    @Test func getReturnsTheHandlersStatusHeadersAndBody() async throws {
        let server = try HTTPServer(configuration: .init(port: 0, threads: 2)) { request in
            HTTPResponse(
                status: 201, headers: [HTTPResponse.Field("X-Method", request.method)],
                body: Array("auth=\(request.header("Authorization") ?? "none")".utf8))
        }
        #expect(server.port != 0)
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(server.port)/hello")))
        request.setValue("Bearer k1", forHTTPHeaderField: "Authorization")
        let (data, response) = try await fetch(request)
        #expect(response.statusCode == 201)
        #expect(response.value(forHTTPHeaderField: "X-Method") == "GET")
        #expect(String(decoding: data, as: UTF8.self) == "auth=Bearer k1")
    }

    @Test func postBodyArrivesComplete() async throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer()
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(server.port)/upload")))
        request.httpMethod = "POST"
        request.httpBody = body
        let (data, response) = try await fetch(request)
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "POST /upload 300000")
        #expect(recorder.requests.first?.body == Array(body))
    }

    @Test func fiftyConcurrentClientsEachGetTheirOwnAnswer() async throws {
        let recorder = RecordingHandler()
        let server = try recorder.startServer(threads: 4)
        let port = server.port
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<50 {
                group.addTask {
                    let url = try #require(URL(string: "http://127.0.0.1:\(port)/client/\(index)"))
                    let session = URLSession(configuration: .ephemeral)
                    defer { session.finishTasksAndInvalidate() }
                    let (data, _) = try await session.data(from: url)
                    return (index, String(decoding: data, as: UTF8.self))
                }
            }
            var answers: [Int: String] = [:]
            for try await (index, text) in group { answers[index] = text }
            return answers
        }
        #expect(answers.count == 50)
        for index in 0..<50 {
            #expect(answers[index] == "GET /client/\(index) 0")
        }
        #expect(recorder.requests.count == 50)
    }
}
