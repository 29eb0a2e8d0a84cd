import Foundation


extension StoreKitReader {
    /// `paymentMode` strings and what they mean.
    static let paymentModes: [String: SubscriptionOffer.PaymentMode] = [
        "free": .freeTrial, "payAsYouGo": .payAsYouGo, "payUpFront": .payUpFront,
    ]

    /// One offer object. A missing `numberOfPeriods` means 1; free offers cost 0 whatever price is left over;
    /// paid offers need `displayPrice`. Promotional and win-back offers are identified by `offerID`, offer
    /// codes by their reference name (what App Store transactions carry as `offerIdentifier`).
    mutating func offer(_ entry: JSONCursor, _ kind: SubscriptionOffer.Kind,
                        of productId: String) throws(TallyError) -> SubscriptionOffer {
        let modeKey = try entry.required("paymentMode")
        let modeText = try modeKey.string()
        guard let mode = Self.paymentModes[modeText] else {
            throw modeKey.failure("'\(modeText)' is not one of free, payAsYouGo, payUpFront")
        }
        let period = try period(entry.required("subscriptionPeriod"))
        var count = 1
        if let countKey = try entry.optional("numberOfPeriods") {
            count = try countKey.int()
            guard count >= 1 else { throw countKey.failure("is \(count); an offer lasts at least one period") }
        }
        var price: Decimal = 0
        if mode != .freeTrial {
            guard let paid = try self.price(entry, "displayPrice", of: productId) else {
                throw TallyError(.invalidConfiguration,
                                 "\(file): \(entry.path(of: "displayPrice")) is missing; a \(modeText) offer needs a price")
            }
            price = paid
        }
        let referenceName = try entry.optional("referenceName")?.string()
        let id: String? = switch kind {
        case .introductory: nil
        case .offerCode: referenceName
        case .promotional, .winBack: try entry.required("offerID").string()
        }
        var eligibility: Set<SubscriptionOffer.CustomerClass>?
        if kind == .offerCode, let list = try entry.optional("eligibility") {
            var classes = Set<SubscriptionOffer.CustomerClass>()
            for item in try list.elements() {
                let text = try item.string()
                guard let customerClass = SubscriptionOffer.CustomerClass(rawValue: text) else {
                    throw item.failure("'\(text)' is not one of new, existing, expired")
                }
                classes.insert(customerClass)
            }
            eligibility = classes
        }
        var isStackable: Bool?
        var isEligible: Bool?
        if kind == .offerCode, let key = try entry.optional("isStackable") { isStackable = try key.bool() }
        if kind == .winBack, let key = try entry.optional("isEligible") { isEligible = try key.bool() }
        return SubscriptionOffer(id: id, kind: kind, paymentMode: mode, period: period, periodCount: count,
                                 price: price, referenceName: referenceName, eligibility: eligibility,
                                 isStackable: isStackable, isEligible: isEligible)
    }
}
