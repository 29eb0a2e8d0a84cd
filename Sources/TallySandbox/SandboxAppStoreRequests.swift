import Foundation

/// A purchase the customer started in the App Store (a promoted in-app purchase: `tally sandbox promote PRODUCT`),
/// for the app to complete: the engine over the sandbox receives it once, as StoreKit's `PurchaseIntent`.
public struct SandboxPurchaseIntent: Sendable, Codable, Hashable {
    /// The intent's id in the account (`intent-1`, `intent-2`, …).
    public var id: String
    /// The product the customer chose.
    public var productId: String
    /// When the customer chose it (the sandbox clock).
    public var date: Date
    /// When an app took it; nil while none has.
    public var deliveredDate: Date?
}

/// A message the App Store has for the customer (`tally sandbox message billing-issue|price-increase`), as
/// StoreKit's `Message`: the engine over the sandbox receives it once, and the app shows it or not.
public struct SandboxMessage: Sendable, Codable, Hashable {
    /// Why the App Store has it.
    public enum Reason: String, Sendable, Codable, Hashable, CaseIterable {
        /// The payment method failed (StoreKit's `billingIssue`).
        case billingIssue = "billing-issue"
        /// A subscription's price goes up and the customer must consent (`priceIncreaseConsent`).
        case priceIncrease = "price-increase"
    }

    /// The message's id in the account (`message-1`, …).
    public var id: String
    /// Why the App Store has it.
    public var reason: Reason
    /// When the App Store made it (the sandbox clock).
    public var date: Date
    /// When an app took it; nil while none has.
    public var deliveredDate: Date?
    /// When the app showed it (StoreKit's `display(in:)`); nil while not shown.
    public var displayedDate: Date?
}

/// An App Store sheet an app showed for the account (manage subscriptions, offer code redemption), as the sandbox
/// records it: nothing happens in it, the record is what tests and `tally sandbox sheets` read.
public struct SandboxSheetCall: Sendable, Codable, Hashable {
    /// Which sheet.
    public enum Sheet: String, Sendable, Codable, Hashable, CaseIterable {
        /// StoreKit's `AppStore.showManageSubscriptions(in:)`.
        case manageSubscriptions = "manage-subscriptions"
        /// StoreKit's `AppStore.presentOfferCodeRedeemSheet(in:)`.
        case offerCodeRedeem = "offer-code-redeem"
    }

    /// Which sheet.
    public var sheet: Sheet
    /// When (the sandbox clock).
    public var date: Date
    /// The device that showed it.
    public var device: String
    /// The subscription group asked for (manage subscriptions of one group), if any.
    public var subscriptionGroupId: String?
}
