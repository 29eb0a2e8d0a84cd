/// A StoreKit Testing switch that can be turned on or off globally or for one account.
public enum SandboxToggle: String, Sendable, Codable, CaseIterable {
    /// Every purchase waits for a parent's approval (`askToBuyEnabled`).
    case askToBuy = "ask-to-buy"
    /// Renewals fail and enter billing retry (`shouldEnterBillingRetryOnRenewal`).
    case billingIssue = "billing-issue"
    /// A billing grace period precedes billing retry (`billingGracePeriodIsEnabled`).
    case gracePeriod = "grace-period"
    /// Purchases are not allowed (parental controls, `SKPaymentQueue.canMakePayments` false).
    case parentalControls = "parental-controls"
    /// Purchases are interrupted until resolved (`interruptedPurchasesEnabled`).
    case interrupted
}

/// A StoreKit API whose calls can be made to fail.
public enum SandboxAPI: String, Sendable, Codable, CaseIterable {
    /// Loading products (`Load Products`).
    case products
    /// Purchasing (`Purchase`).
    case purchase
    /// Restoring / syncing (`App Store Sync`).
    case restore

    /// The API for an Xcode `_storeKitErrors` entry name, nil for APIs the sandbox does not simulate.
    public init?(xcodeName: String) {
        switch xcodeName {
        case "Load Products": self = .products
        case "Purchase": self = .purchase
        case "App Store Sync": self = .restore
        default: return nil
        }
    }
}

/// An error injected into a StoreKit API call; raw values are the CLI names.
public enum SandboxFailure: String, Sendable, Codable, CaseIterable {
    /// `StoreKitError.networkError`.
    case networkError = "network-error"
    /// `StoreKitError.systemError`.
    case systemError = "system-error"
    /// `StoreKitError.notAvailableInStorefront` / `Product.PurchaseError.productUnavailable`.
    case notAvailable = "not-available"
    /// `StoreKitError.userCancelled`.
    case cancelled = "user-cancelled"
    /// `Product.PurchaseError.purchaseNotAllowed`.
    case notAllowed = "not-allowed"
    /// `StoreKitError.unknown`.
    case unknown

    /// The error a failed call reports.
    public func error(for api: SandboxAPI) -> SandboxError {
        switch self {
        case .networkError: SandboxError(.networkError, "\(api.rawValue): injected network error")
        case .systemError: SandboxError(.systemError, "\(api.rawValue): injected system error")
        case .notAvailable: SandboxError(.productUnavailable, "\(api.rawValue): injected error: not available")
        case .cancelled: SandboxError(.userCancelled, "\(api.rawValue): the user cancelled (injected)")
        case .notAllowed: SandboxError(.purchaseNotAllowed, "\(api.rawValue): injected error: not allowed")
        case .unknown: SandboxError(.unknown, "\(api.rawValue): injected unknown error")
        }
    }

    /// The failure for an Xcode simulated error (`current.type`, `current.index`). The index is taken to be
    /// the position in `StoreKitError` (generic) or `Product.PurchaseError` (purchase) — inferred, not documented.
    public init(xcodeType: String?, index: Int?) {
        switch (xcodeType, index) {
        case ("generic", 1): self = .cancelled
        case ("generic", 2): self = .networkError
        case ("generic", 3): self = .systemError
        case ("generic", 4): self = .notAvailable
        case ("purchase", 1): self = .notAvailable
        case ("purchase", 2): self = .notAllowed
        default: self = .unknown
        }
    }
}
