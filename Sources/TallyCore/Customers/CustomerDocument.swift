import Foundation

/// The `customer` object of docs/server.md: written by the server (``encode(appUserId:state:)``, field by field
/// in the documented order) and read by the engine (`Decodable`, then ``state(at:)``), one definition for both.
///
/// It carries the state's entitlements, non-consumables, subscriptions, non-renewing subscriptions, balances and
/// debts; not its date, ledger, used introductory offers or warnings.
public struct CustomerDocument: Sendable, Decodable {
    /// The encoding's version, part of every state the server keeps' fingerprint: change it with the encoding, so
    /// states a store kept from an older encoding are computed again.
    public static let format = "customer/1"

    /// The customer the object describes.
    public var appUserId: String
    private var entitlements: [Entitlement]
    private var nonConsumables: [String]
    private var subscriptions: [Subscription]
    private var nonRenewing: [NonRenewing]
    private var balances: [String: Decimal]
    private var debts: [String: Decimal]

    private struct Entitlement: Decodable, Sendable {
        var feature: String
        var productIds: [String]
        var expiresDate: DocumentDate?
    }

    private struct Subscription: Decodable, Sendable {
        var groupId: String
        var productId: String
        var status: SubscriptionState
        var expiresDate: DocumentDate?
        var gracePeriodExpiresDate: DocumentDate?
        var willRenew: Bool
        var pendingProductId: String?
        var originalTransactionId: String
    }

    private struct NonRenewing: Decodable, Sendable {
        var productId: String
        var expiresDate: DocumentDate
        var isActive: Bool
    }

    /// An ISO 8601 date as the object writes it (with milliseconds), or without fractional seconds; decoded by
    /// itself so that any `JSONDecoder` reads the object.
    private struct DocumentDate: Decodable, Sendable {
        var date: Date

        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? Date(text, strategy: .iso8601.year().month().day()
                .time(includingFractionalSeconds: true)) {
                self.date = date
            } else if let date = try? Date(text, strategy: .iso8601) {
                self.date = date
            } else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "'\(text)' is not an ISO 8601 date"))
            }
        }
    }

    /// The object's state, dated `date` (the object carries no date: the server judged it at its own clock).
    public func state(at date: Date) -> CustomerState {
        CustomerState(
            date: date,
            entitlements: entitlements.map {
                CustomerState.Entitlement(feature: $0.feature, productIds: $0.productIds, expiresDate: $0.expiresDate?.date)
            },
            nonConsumables: nonConsumables,
            subscriptions: subscriptions.map {
                CustomerState.Subscription(
                    groupId: $0.groupId, productId: $0.productId, status: $0.status, expiresDate: $0.expiresDate?.date,
                    gracePeriodExpiresDate: $0.gracePeriodExpiresDate?.date, willRenew: $0.willRenew,
                    pendingProductId: $0.pendingProductId, originalTransactionId: $0.originalTransactionId)
            },
            nonRenewing: nonRenewing.map {
                CustomerState.NonRenewing(productId: $0.productId, expiresDate: $0.expiresDate.date, isActive: $0.isActive)
            },
            balances: balances, debts: debts)
    }

    /// The object in `json` (a bare `customer` object, as ``encode(appUserId:state:)`` writes it).
    public static func decode(_ json: Data) throws -> CustomerDocument {
        try JSONDecoder().decode(CustomerDocument.self, from: json)
    }

    /// The object for `appUserId` in `state`, in ``format``.
    public static func encode(appUserId: String, state: CustomerState) -> [UInt8] {
        JSONWriter.object { writer in
            writer.field("appUserId", appUserId)
            writeMembers(of: state, into: &writer)
        }
    }

    /// The object's members after `appUserId` — entitlements, non-consumables, subscriptions, non-renewing
    /// subscriptions, balances and debts, in that order — into the object `writer` is writing, so another object
    /// (the CLI's `state --json`) carries the customer in this very form.
    public static func writeMembers(of state: CustomerState, into writer: inout JSONWriter) {
        writer.objects("entitlements", state.entitlements) { writer, entitlement in
            writer.field("feature", entitlement.feature)
            writer.field("productIds", entitlement.productIds)
            writer.field("expiresDate", entitlement.expiresDate)
        }
        writer.field("nonConsumables", state.nonConsumables)
        writer.objects("subscriptions", state.subscriptions) { writer, subscription in
            writer.field("groupId", subscription.groupId)
            writer.field("productId", subscription.productId)
            writer.field("status", subscription.status.rawValue)
            writer.field("expiresDate", subscription.expiresDate)
            writer.field("gracePeriodExpiresDate", subscription.gracePeriodExpiresDate)
            writer.field("willRenew", subscription.willRenew)
            writer.field("pendingProductId", subscription.pendingProductId)
            writer.field("originalTransactionId", subscription.originalTransactionId)
        }
        writer.objects("nonRenewing", state.nonRenewing) { writer, item in
            writer.field("productId", item.productId)
            writer.field("expiresDate", item.expiresDate)
            writer.field("isActive", item.isActive)
        }
        writeNets(&writer, balances: state.balances, debts: state.debts)
    }

    /// `body` (an object ``encode(appUserId:state:)`` wrote) with other balances and debts: everything before
    /// them — the part that depends on transactions and renewal info, not on the nets — kept byte for byte, so a
    /// write that moves only the nets (a spend) restates a kept state without computing it. Nil when `body` has
    /// no `balances` member (not this encoding).
    ///
    /// The nets are the last two members. The first `,"balances":` in the body is the top-level member: inside a
    /// JSON string every `"` is escaped, so `,"` there is structure, and no nested object of this encoding has a
    /// member of that name.
    public static func replacingNets(in body: [UInt8], balances: [String: Decimal],
                                     debts: [String: Decimal]) -> [UInt8]? {
        let marker = Array(#","balances":"#.utf8)
        guard let start = firstOffset(of: marker, in: body) else { return nil }
        // `{"balances":…,"debts":…}` from the same writer, joined to the facts in place of its `{`.
        let nets = JSONWriter.object { writer in writeNets(&writer, balances: balances, debts: debts) }
        var restated = Array(body[..<start])
        restated.reserveCapacity(start + nets.count)
        restated.append(UInt8(ascii: ","))
        restated.append(contentsOf: nets.dropFirst())
        return restated
    }

    /// The offset of the first occurrence of `needle` in `haystack` (Collection's `firstRange(of:)` needs
    /// macOS 13; the package's floor is macOS 12).
    static func firstOffset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    private static func writeNets(_ writer: inout JSONWriter, balances: [String: Decimal], debts: [String: Decimal]) {
        writer.field("balances", balances)
        writer.field("debts", debts)
    }
}
