import Foundation
import TallyCore

/// The saved form of a sandbox (`sandbox.json`); indexes are rebuilt when it is read.
extension Sandbox: Codable {
    /// The version of the saved form this code writes and reads.
    public static let formatVersion = 1

    private enum CodingKeys: String, CodingKey {
        case formatVersion, catalog, configuration, now, settings, environment, events, accounts, pending
        case resolvedPurchases, nextTransactionNumber, nextWebOrderNumber, nextPurchaseNumber, nextDeliverySequence
    }

    /// Reads a saved sandbox; throws when the format version is not ``formatVersion``.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let version = try c.decode(Int.self, forKey: .formatVersion)
        guard version == Self.formatVersion else {
            throw DecodingError.dataCorruptedError(forKey: .formatVersion, in: c,
                                                   debugDescription: "format version \(version), this tally reads \(Self.formatVersion)")
        }
        catalog = try c.decode(Catalog.self, forKey: .catalog)
        configuration = try c.decode(AppConfiguration.self, forKey: .configuration)
        now = try c.decode(Date.self, forKey: .now)
        settings = try c.decode(SandboxSettings.self, forKey: .settings)
        environment = try c.decode(StoreEnvironment.self, forKey: .environment)
        events = try c.decode([SandboxEvent].self, forKey: .events)
        accounts = try c.decode([String: AccountRecord].self, forKey: .accounts)
        pending = try c.decode([PendingPurchase].self, forKey: .pending)
        resolvedPurchases = try c.decode(Set<String>.self, forKey: .resolvedPurchases)
        nextTransactionNumber = try c.decode(Int64.self, forKey: .nextTransactionNumber)
        nextWebOrderNumber = try c.decode(Int64.self, forKey: .nextWebOrderNumber)
        nextPurchaseNumber = try c.decode(Int.self, forKey: .nextPurchaseNumber)
        nextDeliverySequence = try c.decode(Int.self, forKey: .nextDeliverySequence)
        productIndex = IndexedProduct.index(catalog)
        for (account, record) in accounts {
            for transaction in record.transactions { transactionAccounts[transaction.transactionId] = account }
        }
    }

    /// Writes the sandbox in its saved form.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.formatVersion, forKey: .formatVersion)
        try c.encode(catalog, forKey: .catalog)
        try c.encode(configuration, forKey: .configuration)
        try c.encode(now, forKey: .now)
        try c.encode(settings, forKey: .settings)
        try c.encode(environment, forKey: .environment)
        try c.encode(events, forKey: .events)
        try c.encode(accounts, forKey: .accounts)
        try c.encode(pending, forKey: .pending)
        try c.encode(resolvedPurchases.sorted(), forKey: .resolvedPurchases)
        try c.encode(nextTransactionNumber, forKey: .nextTransactionNumber)
        try c.encode(nextWebOrderNumber, forKey: .nextWebOrderNumber)
        try c.encode(nextPurchaseNumber, forKey: .nextPurchaseNumber)
        try c.encode(nextDeliverySequence, forKey: .nextDeliverySequence)
    }
}
