/// The `settings` of a .storekit file: the initial switches of StoreKit Testing (SKTestSession).
/// Every key is optional in the file; missing keys take SKTestSession's defaults.
public struct StoreKitSettings: Sendable, Hashable, Codable {
    /// One entry of `_storeKitErrors`: a simulated error for one StoreKit API.
    public struct SimulatedError: Sendable, Hashable, Codable {
        /// The API, as Xcode names it (`Load Products`, `Purchase`, `App Store Sync`, ...).
        public var name: String
        /// Whether the error is on.
        public var enabled: Bool
        /// The chosen error's type (`generic`, `purchase`, `verification`, ...), if any.
        public var errorType: String?
        /// The chosen error's index within its type, if any.
        public var errorIndex: Int?

        /// Creates a simulated error entry.
        public init(name: String, enabled: Bool, errorType: String? = nil, errorIndex: Int? = nil) {
            self.name = name
            self.enabled = enabled
            self.errorType = errorType
            self.errorIndex = errorIndex
        }
    }

    /// Default localization (`_locale`), `en_US` when absent.
    public var locale: String = "en_US"
    /// ISO 3166-1 alpha-3 storefront (`_storefront`), `USA` when absent.
    public var storefront: String = "USA"
    /// Raw `SKTestSession.TimeRate` (`_timeRate`); 0 is real time. Unknown values are kept.
    public var timeRate: Int = 0
    /// Fallback legacy rate (`_compatibilityTimeRate`, an int or `{"3": n}` in the file), if any.
    public var compatibilityTimeRate: Int?
    /// Every purchase needs approval (`_askToBuyEnabled`).
    public var askToBuyEnabled: Bool = false
    /// Purchases are interrupted until resolved (`_billingIssuesEnabled`).
    public var interruptedPurchasesEnabled: Bool = false
    /// Renewals fail with a billing issue and enter billing retry (`_renewalBillingIssuesEnabled`).
    public var renewalBillingIssuesEnabled: Bool = false
    /// A billing grace period precedes billing retry (`_billingGracePeriodEnabled`).
    public var billingGracePeriodEnabled: Bool = false
    /// Suppress interactive dialogs (`_disableDialogs`).
    public var disableDialogs: Bool = false
    /// Legacy: fail every transaction (`_failTransactionsEnabled`).
    public var failTransactionsEnabled: Bool = false
    /// Legacy: the error code failing transactions use (`_storeKitError`).
    public var storeKitError: Int?
    /// Per-API simulated errors (`_storeKitErrors`).
    public var storeKitErrors: [SimulatedError] = []

    /// Settings with SKTestSession's defaults.
    public init() {}
}
