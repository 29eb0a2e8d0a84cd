import Foundation

/// A message the App Store has for the customer (StoreKit's `Message`, iOS 16+): a billing problem to fix, a
/// subscription price increase to consent to. While the app listens to ``Store/storeMessages()`` the App Store does
/// not show them on its own: the app shows each with ``Store/display(_:in:)`` when it suits (not in the middle of a
/// purchase or an onboarding screen), or never.
public struct StoreMessage: Sendable, Hashable, Identifiable {
    /// Why the App Store has a message.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// The payment method failed: the customer should update it (StoreKit's `billingIssue`, iOS 16.4+).
        case billingIssue
        /// A subscription's price goes up and the customer must consent (StoreKit's `priceIncreaseConsent`).
        case priceIncrease
        /// A win-back offer for a lapsed subscriber (StoreKit's `winBackOffer`, iOS 18+).
        case winBackOffer
        /// Any other message (StoreKit's `generic`, and reasons this version of Tally does not know).
        case generic
    }

    /// The backend's id of this message: pass the message back to ``Store/display(_:in:)``.
    public var id: String
    /// Why the App Store has it.
    public var reason: Reason

    /// Creates a message.
    public init(id: String, reason: Reason) {
        self.id = id
        self.reason = reason
    }
}
