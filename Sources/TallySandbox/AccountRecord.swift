import Foundation
import TallyCore

/// Everything the store keeps for one account, indexed so a purchase never scans the history.
struct AccountRecord: Sendable, Hashable {
    /// Every transaction in purchase order; a refund replaces the record in place.
    var transactions: [StoreTransaction] = []
    /// Transaction id → index in `transactions` (rebuilt on load).
    var positions: [String: Int] = [:]
    /// Product id → the transaction of an owned (not revoked) non-consumable (rebuilt on load).
    var ownedNonConsumables: [String: String] = [:]
    /// Group id → the account's subscription in that group.
    var chains: [String: SubscriptionChain] = [:]
    /// Devices that ever purchased or restored, in first-seen order.
    var devices: [String] = []
    /// Device → unfinished transaction id → delivery sequence (lower was delivered first).
    var unfinished: [String: [String: Int]] = [:]
    /// Groups whose introductory offer the account used.
    var introductoryOfferUsedGroups: Set<String> = []
    /// Ids of the win-back offers the account redeemed.
    var redeemedWinBackOffers: Set<String> = []
    /// Ids of the account's Ask to Buy purchases a parent declined, oldest first (for the app to end them).
    var declinedPurchases: [String] = []
    /// Transaction id → its order ID (``SandboxOrderId``); kept in `transactions.order_id`.
    var orderIds: [String: String] = [:]
    /// Refund requests (`tally sandbox refund-request`), oldest first.
    var refundRequests: [SandboxRefundRequest] = []
    /// Transaction id → the consumption information last sent for it (Send Consumption Information).
    var consumption: [String: SandboxConsumptionInfo] = [:]
    /// Purchases started in the App Store (`tally sandbox promote`), oldest first.
    var purchaseIntents: [SandboxPurchaseIntent] = []
    /// App Store messages (`tally sandbox message`), oldest first.
    var messages: [SandboxMessage] = []
    /// App Store sheets the account's apps showed, oldest first.
    var sheetCalls: [SandboxSheetCall] = []

    init() {}

    /// Notes a device as connected to the account.
    mutating func connect(_ device: String) {
        if !devices.contains(device) { devices.append(device) }
    }

    /// Appends a new transaction.
    mutating func append(_ transaction: StoreTransaction) {
        positions[transaction.transactionId] = transactions.count
        transactions.append(transaction)
        if orderIds[transaction.transactionId] == nil {
            orderIds[transaction.transactionId] = SandboxOrderId.of(transactionId: transaction.transactionId)
        }
        if transaction.type == .nonConsumable && !transaction.isRevoked {
            ownedNonConsumables[transaction.productId] = transaction.transactionId
        }
    }

    /// The current record of a transaction.
    func transaction(_ id: String) -> StoreTransaction? {
        positions[id].map { transactions[$0] }
    }

    /// Replaces the record of an existing transaction (same id).
    mutating func replace(_ transaction: StoreTransaction) {
        guard let index = positions[transaction.transactionId] else { return }
        transactions[index] = transaction
        if transaction.type == .nonConsumable && transaction.isRevoked,
           ownedNonConsumables[transaction.productId] == transaction.transactionId {
            ownedNonConsumables[transaction.productId] = nil
        }
    }

    /// Rebuilds the indexes from `transactions`.
    mutating func reindex() {
        positions = [:]
        ownedNonConsumables = [:]
        let all = transactions
        transactions = []
        transactions.reserveCapacity(all.count)
        for transaction in all { append(transaction) }
    }
}

extension AccountRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case transactions, chains, devices, unfinished, introductoryOfferUsedGroups, declinedPurchases
        case refundRequests, consumption, purchaseIntents, messages, sheetCalls, redeemedWinBackOffers
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transactions = try container.decode([StoreTransaction].self, forKey: .transactions)
        chains = try container.decode([String: SubscriptionChain].self, forKey: .chains)
        devices = try container.decode([String].self, forKey: .devices)
        unfinished = try container.decode([String: [String: Int]].self, forKey: .unfinished)
        introductoryOfferUsedGroups = try container.decode(Set<String>.self, forKey: .introductoryOfferUsedGroups)
        // Absent in sandboxes saved before declines were kept.
        declinedPurchases = try container.decodeIfPresent([String].self, forKey: .declinedPurchases) ?? []
        refundRequests = try container.decodeIfPresent([SandboxRefundRequest].self, forKey: .refundRequests) ?? []
        consumption = try container.decodeIfPresent([String: SandboxConsumptionInfo].self, forKey: .consumption) ?? [:]
        purchaseIntents = try container.decodeIfPresent([SandboxPurchaseIntent].self, forKey: .purchaseIntents) ?? []
        messages = try container.decodeIfPresent([SandboxMessage].self, forKey: .messages) ?? []
        sheetCalls = try container.decodeIfPresent([SandboxSheetCall].self, forKey: .sheetCalls) ?? []
        redeemedWinBackOffers = Set(try container.decodeIfPresent([String].self, forKey: .redeemedWinBackOffers) ?? [])
        reindex()
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transactions, forKey: .transactions)
        try container.encode(chains, forKey: .chains)
        try container.encode(devices, forKey: .devices)
        try container.encode(unfinished, forKey: .unfinished)
        try container.encode(introductoryOfferUsedGroups.sorted(), forKey: .introductoryOfferUsedGroups)
        try container.encode(declinedPurchases, forKey: .declinedPurchases)
        try container.encode(refundRequests, forKey: .refundRequests)
        try container.encode(consumption, forKey: .consumption)
        if !purchaseIntents.isEmpty { try container.encode(purchaseIntents, forKey: .purchaseIntents) }
        if !messages.isEmpty { try container.encode(messages, forKey: .messages) }
        if !sheetCalls.isEmpty { try container.encode(sheetCalls, forKey: .sheetCalls) }
        if !redeemedWinBackOffers.isEmpty { try container.encode(redeemedWinBackOffers.sorted(), forKey: .redeemedWinBackOffers) }
    }
}
