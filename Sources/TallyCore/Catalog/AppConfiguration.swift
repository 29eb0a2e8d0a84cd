import Foundation


/// What an app makes of its products (`tally.json`): features, virtual currencies and
/// the lengths of non-renewing subscriptions.
public struct AppConfiguration: Sendable, Hashable, Codable {
    /// The app's bundle identifier.
    public var bundleId: String
    /// Feature name → the product ids that grant it (`"premium": ["market.premium"]`).
    public var entitlements: [String: [String]]
    /// Currency name → product id → amount credited per unit bought (`"coins": {"market.coins.10": 10}`).
    public var currencies: [String: [String: Decimal]]
    /// Product id → how long one purchase of a non-renewing subscription lasts.
    public var nonRenewingDurations: [String: SubscriptionDuration]

    /// Creates a configuration.
    public init(bundleId: String, entitlements: [String: [String]] = [:],
                currencies: [String: [String: Decimal]] = [:],
                nonRenewingDurations: [String: SubscriptionDuration] = [:]) {
        self.bundleId = bundleId
        self.entitlements = entitlements
        self.currencies = currencies
        self.nonRenewingDurations = nonRenewingDurations
    }
}
