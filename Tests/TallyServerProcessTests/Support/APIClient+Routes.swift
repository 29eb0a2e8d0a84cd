import Foundation

extension APIClient {
    /// `POST /v1/customers/{id}/transactions` with the public key (or `key`).
    func postTransaction(_ signedTransaction: String, for appUserId: String,
                         key: String? = nil) async throws -> HTTPReply {
        try await send("POST", Self.customerPath(appUserId) + "/transactions", key: key ?? keys.publicKey,
                       body: try Self.json(["signedTransaction": signedTransaction]))
    }

    /// `POST /v1/customers/{id}/account-token` with the secret key (or `key`, with `customerToken` if given).
    func accountTokenReply(_ appUserId: String, key: String? = nil, customerToken: String? = nil) async throws -> HTTPReply {
        try await send("POST", Self.customerPath(appUserId) + "/account-token", key: key ?? keys.secretKey,
                       headers: customerToken.map { ["Tally-Customer-Token": $0] } ?? [:])
    }

    /// The customer's minted `appAccountToken` (asked with the secret key); throws unless 200.
    func accountToken(_ appUserId: String) async throws -> String {
        let reply = try await accountTokenReply(appUserId)
        guard reply.status == 200, let token = try reply.json()["appAccountToken"] as? String else {
            throw HarnessError("POST account-token '\(appUserId.prefix(40))': \(reply)")
        }
        return token
    }

    /// `GET /v1/customers/{id}` with the public key.
    func customerReply(_ appUserId: String) async throws -> HTTPReply {
        try await send("GET", Self.customerPath(appUserId), key: keys.publicKey)
    }

    /// The `customer` object of `GET /v1/customers/{id}`; throws unless 200.
    func customer(_ appUserId: String) async throws -> [String: Any] {
        let reply = try await customerReply(appUserId)
        guard reply.status == 200 else { throw HarnessError("GET customer '\(appUserId.prefix(40))': \(reply)") }
        return try reply.customer()
    }

    /// `POST /v1/customers/{id}/currencies/{currency}/spend` with the secret key.
    func spend(_ amount: Int, of currency: String = "coins", id: String, for appUserId: String) async throws -> HTTPReply {
        try await send("POST", Self.customerPath(appUserId) + "/currencies/\(currency)/spend", key: keys.secretKey,
                       body: try Self.json(["amount": amount, "id": id]))
    }

    /// One page of `GET /v1/customers/{id}/history` with the secret key.
    func historyPage(_ appUserId: String, cursor: String? = nil, limit: Int = 500) async throws -> HTTPReply {
        var query = "?limit=\(limit)"
        if let cursor { query += "&cursor=" + PercentEncoding.pathSegment(cursor) }
        return try await send("GET", Self.customerPath(appUserId) + "/history" + query, key: keys.secretKey)
    }

    /// Every history item, newest first, following `nextCursor` to the end.
    func history(_ appUserId: String) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var cursor: String?
        for _ in 0..<1_000 {
            let reply = try await historyPage(appUserId, cursor: cursor)
            guard reply.status == 200 else { throw HarnessError("GET history '\(appUserId.prefix(40))': \(reply)") }
            let body = try reply.json()
            guard let page = body["items"] as? [[String: Any]] else { throw HarnessError("history without items: \(reply)") }
            items += page
            guard let next = body["nextCursor"] as? String else { return items }
            cursor = next
        }
        throw HarnessError("history of '\(appUserId.prefix(40))' did not end after 1000 pages")
    }

    /// `GET /healthz` answers 200 `{"status":"ok"}`.
    func isHealthy() async -> Bool {
        guard let reply = try? await send("GET", "/healthz"), reply.status == 200,
              let body = try? reply.json() else { return false }
        return body["status"] as? String == "ok"
    }
}

extension APIClient {
    /// `POST /v1/customers/{id}/aliases` `{"alias": alias}` with the public key (or `key`, with `customerToken`).
    func alias(_ alias: String, to appUserId: String, key: String? = nil, customerToken: String? = nil) async throws
        -> HTTPReply
    {
        try await send("POST", Self.customerPath(appUserId) + "/aliases", key: key ?? keys.publicKey,
                       body: try Self.json(["alias": alias]),
                       headers: customerToken.map { ["Tally-Customer-Token": $0] } ?? [:])
    }

    /// `POST /v1/customers/{id}/attributes` `{"attributes": attributes}` with the public key (NSNull deletes).
    func setAttributes(_ attributes: [String: Any], for appUserId: String) async throws -> HTTPReply {
        try await send("POST", Self.customerPath(appUserId) + "/attributes", key: keys.publicKey,
                       body: try Self.json(["attributes": attributes]))
    }

    /// `GET /v1/customers/{id}/attributes` with the secret key (or `key`).
    func attributes(of appUserId: String, key: String? = nil) async throws -> HTTPReply {
        try await send("GET", Self.customerPath(appUserId) + "/attributes", key: key ?? keys.secretKey)
    }
}
