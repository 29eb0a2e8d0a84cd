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
