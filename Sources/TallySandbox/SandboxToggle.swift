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
