import TallyCore

/// The switches of the simulated store, as StoreKit Testing's `SKTestSession` has them.
/// The catalog's ``StoreKitSettings`` give the initial values.
public struct SandboxSettings: Sendable, Codable, Hashable {
    /// Per-account values of the switches; nil leaves the global value in force.
    public struct Overrides: Sendable, Codable, Hashable {
        /// Ask to Buy for this account.
        public var askToBuy: Bool?
        /// Billing issues at renewal for this account.
        public var billingIssue: Bool?
        /// Grace period for this account.
        public var gracePeriod: Bool?
        /// Parental controls for this account.
        public var parentalControls: Bool?
        /// Interrupted purchases for this account.
        public var interrupted: Bool?

        /// No overrides.
        public init() {}

        subscript(toggle: SandboxToggle) -> Bool? {
            get {
                switch toggle {
                case .askToBuy: askToBuy
                case .billingIssue: billingIssue
                case .gracePeriod: gracePeriod
                case .parentalControls: parentalControls
                case .interrupted: interrupted
                }
            }
            set {
                switch toggle {
                case .askToBuy: askToBuy = newValue
                case .billingIssue: billingIssue = newValue
                case .gracePeriod: gracePeriod = newValue
                case .parentalControls: parentalControls = newValue
                case .interrupted: interrupted = newValue
                }
            }
        }
    }

    /// An injected failure of an API: for the next `remaining` calls, or for every call when `remaining` is nil.
    public struct Fault: Sendable, Codable, Hashable {
        /// The API that fails.
        public var api: SandboxAPI
        /// The error it fails with.
        public var failure: SandboxFailure
        /// Calls left to fail; nil fails every call until removed (an enabled Xcode simulated error).
        public var remaining: Int?

        /// Creates a fault.
        public init(api: SandboxAPI, failure: SandboxFailure, remaining: Int?) {
            self.api = api
            self.failure = failure
            self.remaining = remaining
        }
    }

    /// Every purchase needs approval.
    public var askToBuy = false
    /// Renewals fail with a billing issue.
    public var billingIssue = false
    /// A grace period precedes billing retry.
    public var gracePeriod = false
    /// Purchases are not allowed.
    public var parentalControls = false
    /// Purchases are interrupted until resolved.
    public var interrupted = false
    /// Every purchase fails (`failTransactionsEnabled`, legacy).
    public var failTransactions = false
    /// Account → switches that differ from the global ones.
    public var accountOverrides: [String: Overrides] = [:]
    /// Raw `SKTestSession.TimeRate`; see ``SandboxTimeRate``.
    public var timeRate = 0
    /// Locale of product localizations (`en_US`).
    public var locale = "en_US"
    /// ISO 3166-1 alpha-3 storefront (`USA`).
    public var storefront = "USA"
    /// Injected failures in the order they were added; counted ones are used first.
    public var faults: [Fault] = []
    /// Where `tally sandbox serve` posts App Store Server Notifications V2 (`tally sandbox set notification-url`);
    /// nil: none are sent, and none are recorded (App Store Connect sends only to a configured URL).
    public var notificationURL: String?
    /// Whether a failed delivery is retried on Apple's production schedule; nil means on (the default here).
    /// Off is Apple's sandbox environment: one attempt only (`tally sandbox set notification-retries off`).
    public var notificationRetries: Bool?

    /// Whether failed deliveries are retried (``notificationRetries``, on unless set off).
    public var retriesNotifications: Bool { notificationRetries ?? true }

    /// Settings with StoreKit Testing's defaults.
    public init() {}

    /// The initial settings a .storekit file describes.
    public init(storeKit: StoreKitSettings) {
        askToBuy = storeKit.askToBuyEnabled
        interrupted = storeKit.interruptedPurchasesEnabled
        billingIssue = storeKit.renewalBillingIssuesEnabled
        gracePeriod = storeKit.billingGracePeriodEnabled
        failTransactions = storeKit.failTransactionsEnabled
        timeRate = storeKit.timeRate
        locale = storeKit.locale
        storefront = storeKit.storefront
        for entry in storeKit.storeKitErrors where entry.enabled {
            guard let api = SandboxAPI(xcodeName: entry.name) else { continue }
            faults.append(Fault(api: api, failure: SandboxFailure(xcodeType: entry.errorType, index: entry.errorIndex),
                                remaining: nil))
        }
    }

    /// The global value of a switch.
    public func global(_ toggle: SandboxToggle) -> Bool {
        switch toggle {
        case .askToBuy: askToBuy
        case .billingIssue: billingIssue
        case .gracePeriod: gracePeriod
        case .parentalControls: parentalControls
        case .interrupted: interrupted
        }
    }

    /// The value of a switch for an account: its override, else the global value.
    public func isEnabled(_ toggle: SandboxToggle, account: String) -> Bool {
        accountOverrides[account]?[toggle] ?? global(toggle)
    }

    /// Sets a switch globally (account nil) or for one account.
    public mutating func set(_ toggle: SandboxToggle, enabled: Bool, account: String? = nil) {
        guard let account else {
            switch toggle {
            case .askToBuy: askToBuy = enabled
            case .billingIssue: billingIssue = enabled
            case .gracePeriod: gracePeriod = enabled
            case .parentalControls: parentalControls = enabled
            case .interrupted: interrupted = enabled
            }
            return
        }
        accountOverrides[account, default: Overrides()][toggle] = enabled
    }

    /// Takes the failure for the next call of `api`, if any: counted faults first (oldest first), then a
    /// persistent one.
    mutating func takeFault(_ api: SandboxAPI) -> SandboxFailure? {
        if let index = faults.firstIndex(where: { $0.api == api && $0.remaining != nil }) {
            let failure = faults[index].failure
            let left = (faults[index].remaining ?? 1) - 1
            if left <= 0 { faults.remove(at: index) } else { faults[index].remaining = left }
            return failure
        }
        return faults.first { $0.api == api && $0.remaining == nil }?.failure
    }
}
