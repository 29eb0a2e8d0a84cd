import Foundation


/// One billing plan of an auto-renewable subscription (`billingPlans[]`, .storekit v5.0+).
public struct SubscriptionBillingPlan: Sendable, Hashable, Codable {
    /// How the plan bills (`BILLED_UPFRONT`, `MONTHLY`).
    public var type: BillingPlanType
    /// The price charged each billing (`displayPrice`).
    public var price: Decimal
    /// The total committed price (`commitmentDisplayPrice`), if the file gives one.
    public var commitmentPrice: Decimal?
    /// Whether the plan is offered (`isEnabled`).
    public var isEnabled: Bool

    /// Creates a billing plan.
    public init(type: BillingPlanType, price: Decimal, commitmentPrice: Decimal? = nil, isEnabled: Bool = true) {
        self.type = type
        self.price = price
        self.commitmentPrice = commitmentPrice
        self.isEnabled = isEnabled
    }
}
