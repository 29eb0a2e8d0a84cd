import Foundation


/// What a customer owns at one moment: the output of the ownership rules.
public struct CustomerState: Sendable, Hashable, Codable {
    /// A feature from `tally.json` that is active now.
    public struct Entitlement: Sendable, Hashable, Codable {
        /// The feature name.
        public var feature: String
        /// The products granting it now.
        public var productIds: [String]
        /// When it ends if nothing renews; nil for non-consumables (forever).
        public var expiresDate: Date?

        /// Creates an entitlement.
        public init(feature: String, productIds: [String], expiresDate: Date?) {
            self.feature = feature
            self.productIds = productIds
            self.expiresDate = expiresDate
        }
    }

    /// One subscription group's state.
    public struct Subscription: Sendable, Hashable, Codable {
        /// The group id.
        public var groupId: String
        /// The product in force.
        public var productId: String
        /// Where the group stands.
        public var status: SubscriptionState
        /// When the current period ends.
        public var expiresDate: Date?
        /// End of the grace period while in grace.
        public var gracePeriodExpiresDate: Date?
        /// Whether it renews at the end of the period.
        public var willRenew: Bool
        /// The product that takes over at the next renewal (pending downgrade or crossgrade), if different.
        public var pendingProductId: String?
        /// The subscription chain.
        public var originalTransactionId: String

        /// Creates a subscription state.
        public init(groupId: String, productId: String, status: SubscriptionState, expiresDate: Date?,
                    gracePeriodExpiresDate: Date? = nil, willRenew: Bool, pendingProductId: String? = nil,
                    originalTransactionId: String) {
            self.groupId = groupId
            self.productId = productId
            self.status = status
            self.expiresDate = expiresDate
            self.gracePeriodExpiresDate = gracePeriodExpiresDate
            self.willRenew = willRenew
            self.pendingProductId = pendingProductId
            self.originalTransactionId = originalTransactionId
        }
    }

    /// A non-renewing subscription's state.
    public struct NonRenewing: Sendable, Hashable, Codable {
        /// The product.
        public var productId: String
        /// When the time bought runs out.
        public var expiresDate: Date
        /// Whether it is active now.
        public var isActive: Bool

        /// Creates a non-renewing state.
        public init(productId: String, expiresDate: Date, isActive: Bool) {
            self.productId = productId
            self.expiresDate = expiresDate
            self.isActive = isActive
        }
    }

    /// The moment this state describes.
    public var date: Date
    /// Active features, sorted by name.
    public var entitlements: [Entitlement]
    /// Non-consumables owned (not revoked), sorted.
    public var nonConsumables: [String]
    /// One entry per subscription group the customer ever subscribed to, sorted by group id.
    public var subscriptions: [Subscription]
    /// Non-renewing subscriptions ever bought, sorted by product id.
    public var nonRenewing: [NonRenewing]
    /// Currency balances (never negative here; see ``debts``).
    public var balances: [String: Decimal]
    /// Currency owed after refunds clawed back coins already spent.
    public var debts: [String: Decimal]
    /// The ledger behind balances and debts, in date order (built on first read when the rules made this state).
    public var ledger: [LedgerEntry] {
        get { ledgerStorage.entries }
        set { ledgerStorage = LedgerStorage(newValue) }
    }
    private var ledgerStorage: LedgerStorage
    /// Subscription groups whose introductory offer the customer has used.
    public var introductoryOfferUsedGroups: Set<String>
    /// Problems in the history or configuration the rules worked around (a non-renewing product without a
    /// duration, an unknown product type), sorted.
    public var warnings: [String]

    /// Creates a state.
    public init(date: Date, entitlements: [Entitlement] = [], nonConsumables: [String] = [],
                subscriptions: [Subscription] = [], nonRenewing: [NonRenewing] = [],
                balances: [String: Decimal] = [:], debts: [String: Decimal] = [:], ledger: [LedgerEntry] = [],
                introductoryOfferUsedGroups: Set<String> = [], warnings: [String] = []) {
        self.init(date: date, entitlements: entitlements, nonConsumables: nonConsumables,
                  subscriptions: subscriptions, nonRenewing: nonRenewing, balances: balances, debts: debts,
                  ledger: LedgerStorage(ledger), introductoryOfferUsedGroups: introductoryOfferUsedGroups,
                  warnings: warnings)
    }

    /// Creates a state whose ledger may be built later.
    init(date: Date, entitlements: [Entitlement], nonConsumables: [String], subscriptions: [Subscription],
         nonRenewing: [NonRenewing], balances: [String: Decimal], debts: [String: Decimal], ledger: LedgerStorage,
         introductoryOfferUsedGroups: Set<String>, warnings: [String]) {
        self.date = date
        self.entitlements = entitlements
        self.nonConsumables = nonConsumables
        self.subscriptions = subscriptions
        self.nonRenewing = nonRenewing
        self.balances = balances
        self.debts = debts
        self.ledgerStorage = ledger
        self.introductoryOfferUsedGroups = introductoryOfferUsedGroups
        self.warnings = warnings
    }

    /// The JSON keys: the ledger is encoded as `ledger`, an array of entries.
    private enum CodingKeys: String, CodingKey {
        case date, entitlements, nonConsumables, subscriptions, nonRenewing, balances, debts
        case ledgerStorage = "ledger"
        case introductoryOfferUsedGroups, warnings
    }

    /// Whether the feature is active now.
    public func isEntitled(_ feature: String) -> Bool {
        entitlements.contains { $0.feature == feature }
    }

    /// The balance of a currency (zero when in debt).
    public func balance(_ currency: String) -> Decimal {
        balances[currency] ?? 0
    }
}
