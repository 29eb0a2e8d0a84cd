import Foundation

extension APIClient {
    /// `GET /v1/offerings` with the public key and the query items given.
    func offerings(_ query: [String: String] = [:], headers: [String: String] = [:]) async throws -> HTTPReply {
        let items = query.sorted { $0.key < $1.key }
            .map { "\($0.key)=\(PercentEncoding.pathSegment($0.value))" }.joined(separator: "&")
        return try await send("GET", "/v1/offerings" + (items.isEmpty ? "" : "?" + items), key: keys.publicKey,
                              headers: headers)
    }

    /// `GET /v1/offerings/document` with the secret key (or `key`).
    func offeringsDocument(version: Int? = nil, key: String? = nil) async throws -> HTTPReply {
        try await send("GET", "/v1/offerings/document" + (version.map { "?version=\($0)" } ?? ""),
                       key: key ?? keys.secretKey)
    }

    /// The live document's version and document object; throws unless 200.
    func liveOfferings() async throws -> (version: Int, document: [String: Any]) {
        let reply = try await offeringsDocument()
        guard reply.status == 200, let version = try reply.json()["version"] as? Int,
              let document = try reply.json()["document"] as? [String: Any] else {
            throw HarnessError("GET /v1/offerings/document: \(reply)")
        }
        return (version, document)
    }

    /// `PUT /v1/offerings` with the secret key (or `key`), `If-Match: "<following>"` when given.
    func putOfferings(_ document: [String: Any], following: Int?, key: String? = nil) async throws -> HTTPReply {
        try await putOfferings(raw: try JSONSerialization.data(withJSONObject: document), following: following, key: key)
    }

    /// `PUT /v1/offerings` with a raw body.
    func putOfferings(raw body: Data, following: Int?, key: String? = nil, ifMatch: String? = nil) async throws -> HTTPReply {
        var headers: [String: String] = [:]
        if let following { headers["If-Match"] = "\"\(following)\"" }
        if let ifMatch { headers["If-Match"] = ifMatch }
        return try await send("PUT", "/v1/offerings", key: key ?? keys.secretKey, body: body, headers: headers)
    }
}
