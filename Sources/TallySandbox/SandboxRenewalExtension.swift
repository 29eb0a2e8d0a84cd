import Foundation

/// One renewal-date extension of a subscription (Extend a Subscription Renewal Date, or one subscriber of a
/// mass extension), kept with the chain: the limit of two in 365 days counts them, and a request resent with
/// the same `requestIdentifier` gets the same answer without extending again.
public struct SandboxRenewalExtension: Sendable, Codable, Hashable {
    /// The caller's `requestIdentifier`.
    public var requestIdentifier: String
    /// Sandbox time of the extension.
    public var date: Date
    /// `extendByDays` (1–90).
    public var days: Int
    /// `extendReasonCode` (0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage).
    public var reasonCode: Int
    /// The new expiry (`effectiveDate`).
    public var effectiveDate: Date
    /// The chain's `webOrderLineItemId` extended.
    public var webOrderLineItemId: String?
    /// The chain's original transaction.
    public var originalTransactionId: String
}

/// A mass renewal-date extension (Extend Subscription Renewal Dates for All Active Subscribers) and its result:
/// the sandbox runs it at once, so it is complete when the request returns (Apple takes hours or days).
public struct SandboxMassExtension: Sendable, Codable, Hashable {
    /// The caller's `requestIdentifier` (a UUID).
    public var requestIdentifier: String
    /// The product whose active subscribers were extended.
    public var productId: String
    /// `extendByDays`.
    public var days: Int
    /// `extendReasonCode`.
    public var reasonCode: Int
    /// The storefronts (ISO 3166-1 alpha-3) it was limited to; nil for all.
    public var storefrontCountryCodes: [String]?
    /// When it was asked.
    public var requestDate: Date
    /// When it finished.
    public var completeDate: Date?
    /// Subscriptions extended.
    public var succeededCount: Int
    /// Subscriptions not extended (ineligible, or at the limit).
    public var failedCount: Int
}
