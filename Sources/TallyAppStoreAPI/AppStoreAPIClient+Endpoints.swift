import Foundation

extension AppStoreAPIClient {
    /// One page of Get Transaction History v2.
    public struct HistoryPage: Decodable, Sendable, Hashable {
        /// The signed transactions of the page (up to 20).
        public var signedTransactions: [String]
        /// Pass back to get the next page; the last page's revision later fetches only newer changes.
        public var revision: String
        /// Whether another page follows.
        public var hasMore: Bool
    }

    /// One subscription chain's latest state in Get All Subscription Statuses.
    public struct LastTransaction: Decodable, Sendable, Hashable {
        /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
        public var status: Int
        /// The chain.
        public var originalTransactionId: String
        /// Its latest transaction.
        public var signedTransactionInfo: String
        /// Its renewal info.
        public var signedRenewalInfo: String?
    }

    /// One page of Get Notification History.
    public struct NotificationHistoryPage: Decodable, Sendable, Hashable {
        /// One notification as the App Store sent it.
        public struct Item: Decodable, Sendable, Hashable {
            /// The notification's JWS, as it was posted.
            public var signedPayload: String
        }
        /// The notifications of the page.
        public var notificationHistory: [Item]
        /// Whether another page follows.
        public var hasMore: Bool
        /// Pass back for the next page.
        public var paginationToken: String?
    }

    /// `POST /inApps/v1/notifications/history[?paginationToken=]` for the window `start`..<`end`.
    public func notificationHistory(from start: Date, to end: Date, paginationToken: String?)
        throws(AppStoreAPIClientError) -> NotificationHistoryPage
    {
        let body = #"{"startDate":\#(Int64(start.timeIntervalSince1970 * 1_000)),"endDate":\#(Int64(end.timeIntervalSince1970 * 1_000))}"#
        let query = paginationToken.map { [("paginationToken", $0)] } ?? []
        return try decode(NotificationHistoryPage.self, post("/inApps/v1/notifications/history", query: query,
                                                             body: Data(body.utf8)))
    }

    /// `PUT /inApps/v2/transactions/consumption/{transactionId}` (Send Consumption Information) with a
    /// `ConsumptionRequest` JSON body; returns when Apple answered 202 (received).
    public func sendConsumptionInformation(_ transactionId: String, body: Data) throws(AppStoreAPIClientError) {
        _ = try put("/inApps/v2/transactions/consumption/\(Self.pathSegment(transactionId))", body: body, expected: 202)
    }

    /// `PUT /inApps/v1/transactions/consumption/{transactionId}` (Send Consumption Information V1) with a
    /// `ConsumptionRequestV1` JSON body; returns when Apple answered 202.
    public func sendConsumptionInformationV1(_ transactionId: String, body: Data) throws(AppStoreAPIClientError) {
        _ = try put("/inApps/v1/transactions/consumption/\(Self.pathSegment(transactionId))", body: body, expected: 202)
    }

    /// `GET /inApps/v1/transactions/{transactionId}`: the signed transaction.
    public func transactionInfo(_ transactionId: String) throws(AppStoreAPIClientError) -> String {
        struct Response: Decodable { var signedTransactionInfo: String }
        return try decode(Response.self, get("/inApps/v1/transactions/\(Self.pathSegment(transactionId))"))
            .signedTransactionInfo
    }

    /// `GET /inApps/v2/history/{anyTransactionId}` in ascending order, from `revision` (nil: the start).
    public func transactionHistory(_ anyTransactionId: String, revision: String?) throws(AppStoreAPIClientError)
        -> HistoryPage
    {
        var query = [("sort", "ASCENDING")]
        if let revision { query.append(("revision", revision)) }
        return try decode(HistoryPage.self, get("/inApps/v2/history/\(Self.pathSegment(anyTransactionId))", query: query))
    }

    /// Every page of the history from `revision` to the end: the signed transactions and the final revision.
    public func wholeTransactionHistory(_ anyTransactionId: String, from revision: String?,
                                        pageLimit: Int = 10_000) throws(AppStoreAPIClientError)
        -> (signedTransactions: [String], revision: String?)
    {
        var transactions: [String] = []
        var current = revision
        for _ in 0..<pageLimit {
            let page = try transactionHistory(anyTransactionId, revision: current)
            transactions += page.signedTransactions
            current = page.revision
            if !page.hasMore { return (transactions, current) }
        }
        throw AppStoreAPIClientError(.malformedResponse, "the history did not end within \(pageLimit) pages")
    }

    /// `GET /inApps/v1/subscriptions/{anyTransactionId}`: each chain's latest transaction, renewal info and status.
    public func subscriptionStatuses(_ anyTransactionId: String) throws(AppStoreAPIClientError) -> [LastTransaction] {
        struct Response: Decodable {
            struct Group: Decodable { var lastTransactions: [LastTransaction] }
            var data: [Group]
        }
        return try decode(Response.self, get("/inApps/v1/subscriptions/\(Self.pathSegment(anyTransactionId))"))
            .data.flatMap(\.lastTransactions)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws(AppStoreAPIClientError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw AppStoreAPIClientError(.malformedResponse, "the answer is not a \(T.self): \(error)")
        }
    }

    /// `text` percent-encoded as one path segment.
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}
