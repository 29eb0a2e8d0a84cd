/// The type of a webhook event (docs/webhooks.md), normalized from what a write did: the same name whichever
/// path (a post, a notification, reconciliation, a spend) caused it.
public enum WebhookEventType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A subscription chain's first purchase.
    case initialPurchase = "INITIAL_PURCHASE"
    /// A new transaction of a chain already stored, for the same product.
    case renewal = "RENEWAL"
    /// Auto-renew turned off (`DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_DISABLED`).
    case cancellation = "CANCELLATION"
    /// Auto-renew turned back on (`DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_ENABLED`).
    case uncancellation = "UNCANCELLATION"
    /// A renewal failed to bill (`DID_FAIL_TO_RENEW`).
    case billingIssue = "BILLING_ISSUE"
    /// A subscription expired (`EXPIRED`).
    case expiration = "EXPIRATION"
    /// A new transaction of a chain already stored, for another product of its group.
    case productChange = "PRODUCT_CHANGE"
    /// A purchase of anything but an auto-renewable subscription.
    case nonRenewingPurchase = "NON_RENEWING_PURCHASE"
    /// A stored transaction gained a `revocationDate`.
    case refund = "REFUND"
    /// A stored transaction's `revocationDate` went away (`REFUND_REVERSED`).
    case refundReversed = "REFUND_REVERSED"
    /// A chain moved to another customer (ownership policy `transfer`).
    case transfer = "TRANSFER"
    /// A customer's virtual currency moved: a coin purchase's credit, a spend, a refund's claw-back.
    case virtualCurrencyTransaction = "VIRTUAL_CURRENCY_TRANSACTION"
    /// A subscription was extended (`RENEWAL_EXTENDED`).
    case subscriptionExtended = "SUBSCRIPTION_EXTENDED"
    /// Sent on request (`tally serve webhooks test`), to check an endpoint.
    case test = "TEST"

    /// The type named `name`, exactly as docs/webhooks.md spells it; nil for any other name.
    public init?(name: String) {
        self.init(rawValue: name)
    }
}
