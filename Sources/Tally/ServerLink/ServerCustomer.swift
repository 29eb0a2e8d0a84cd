import Foundation
import TallyCore


/// The `customer` object of docs/server.md, decoded into TallyCore's ``CustomerState``.
struct ServerCustomer: Decodable {
    struct Entitlement: Decodable {
        var feature: String
        var productIds: [String]
        var expiresDate: Date?
    }

    struct Subscription: Decodable {
        var groupId: String
        var productId: String
        var status: SubscriptionState
        var expiresDate: Date?
        var gracePeriodExpiresDate: Date?
        var willRenew: Bool
        var pendingProductId: String?
        var originalTransactionId: String
    }

    struct NonRenewing: Decodable {
        var productId: String
        var expiresDate: Date
        var isActive: Bool
    }

    var appUserId: String
    var entitlements: [Entitlement]
    var nonConsumables: [String]
    var subscriptions: [Subscription]
    var nonRenewing: [NonRenewing]
    var balances: [String: Decimal]
    var debts: [String: Decimal]

    /// The answer's envelope: `{"customer": …}` plus route-specific fields.
    private struct Envelope: Decodable {
        var customer: ServerCustomer
    }

    /// `{"customer":{"appUserId":…}}`.
    private struct CustomerIdEnvelope: Decodable {
        struct Customer: Decodable {
            var appUserId: String
        }
        var customer: Customer
    }

    /// The `customer.appUserId` of an answer; nil when it has none.
    static func appUserId(in data: Data) -> String? {
        (try? JSONDecoder().decode(CustomerIdEnvelope.self, from: data))?.customer.appUserId
    }

    /// A transaction post's `{"transaction":{"outcome":…}}`.
    private struct PostEnvelope: Decodable {
        struct Posted: Decodable {
            var outcome: String
        }
        var transaction: Posted
    }

    /// The `transaction.outcome` of a post's answer; nil when there is none or it is not one of docs/server.md.
    static func outcome(in data: Data) -> ServerOutcome? {
        (try? JSONDecoder().decode(PostEnvelope.self, from: data)).flatMap { ServerOutcome(rawValue: $0.transaction.outcome) }
    }

    /// `{"error":{"code","message"}}`.
    private struct ErrorEnvelope: Decodable {
        struct Body: Decodable {
            var code: String
            var message: String
        }
        var error: Body
    }

    /// The state in an answer's `customer` object, dated now (the server judged it at its own clock).
    static func state(fromResponse data: Data, now: Date = Date()) throws -> CustomerState {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? Date(text, strategy: .iso8601.year().month().day()
                .time(includingFractionalSeconds: true)) { return date }
            if let date = try? Date(text, strategy: .iso8601) { return date }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(text)' is not an ISO 8601 date"))
        }
        let customer = try decoder.decode(Envelope.self, from: data).customer
        return customer.state(at: now)
    }

    /// The error code and message of an error answer; `unknown` and the body's start when it is not one.
    static func error(in data: Data) -> (code: String, message: String) {
        if let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: data) {
            return (envelope.error.code, envelope.error.message)
        }
        return ("unknown", String(decoding: data.prefix(200), as: UTF8.self))
    }

    /// As TallyCore's state (what the server's `customer` object carries; no ledger).
    func state(at now: Date) -> CustomerState {
        CustomerState(
            date: now,
            entitlements: entitlements.map {
                CustomerState.Entitlement(feature: $0.feature, productIds: $0.productIds, expiresDate: $0.expiresDate)
            },
            nonConsumables: nonConsumables,
            subscriptions: subscriptions.map {
                CustomerState.Subscription(
                    groupId: $0.groupId, productId: $0.productId, status: $0.status, expiresDate: $0.expiresDate,
                    gracePeriodExpiresDate: $0.gracePeriodExpiresDate, willRenew: $0.willRenew,
                    pendingProductId: $0.pendingProductId, originalTransactionId: $0.originalTransactionId)
            },
            nonRenewing: nonRenewing.map {
                CustomerState.NonRenewing(productId: $0.productId, expiresDate: $0.expiresDate, isActive: $0.isActive)
            },
            balances: balances, debts: debts)
    }
}
