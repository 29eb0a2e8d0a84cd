/// Where one subscription group stands for a customer (StoreKit's `RenewalState`).
public enum SubscriptionState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Active; the customer is entitled.
    case subscribed
    /// A renewal failed but the grace period keeps the customer entitled.
    case inGracePeriod
    /// A renewal failed and Apple is retrying; not entitled.
    case inBillingRetry
    /// Ended; not entitled.
    case expired
    /// Refunded or revoked; not entitled.
    case revoked

    /// Whether this status entitles the customer to service.
    public var isEntitled: Bool { self == .subscribed || self == .inGracePeriod }
}
