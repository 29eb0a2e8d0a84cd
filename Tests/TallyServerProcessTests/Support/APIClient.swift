import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to one running server over URLSession (keep-alive, up to 20 connections).
struct APIClient: Sendable {
    /// `http://127.0.0.1:PORT`.
    let base: String
    /// The configured keys.
    let keys: ServerKeys
    let session: URLSession

    /// A client of `127.0.0.1:port`; each request is given up after `timeout` seconds.
    init(port: Int, keys: ServerKeys, timeout: TimeInterval = 120) {
        base = "http://127.0.0.1:\(port)"
        self.keys = keys
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 20
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    /// Sends a request; `key` goes in `Authorization: Bearer`.
    func send(_ method: String, _ path: String, key: String? = nil, body: Data? = nil,
              headers: [String: String] = [:]) async throws -> HTTPReply {
        guard let url = URL(string: base + path) else { throw HarnessError("not a URL: \(base + path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw HarnessError("not an HTTP response for \(path)") }
        var lowered: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { lowered[name.lowercased()] = value }
        }
        return HTTPReply(status: http.statusCode, headers: lowered, body: data)
    }

    /// `/v1/customers/{appUserId}` with the id percent-encoded.
    static func customerPath(_ appUserId: String) -> String {
        "/v1/customers/" + PercentEncoding.pathSegment(appUserId)
    }

    /// JSON for `object`.
    static func json(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }
}
