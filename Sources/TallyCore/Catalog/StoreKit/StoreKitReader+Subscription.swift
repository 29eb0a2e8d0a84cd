extension StoreKitReader {
    /// A subscription group and its products, in file order.
    mutating func subscriptionGroup(_ entry: JSONCursor) throws(TallyError) -> (SubscriptionGroup, [CatalogProduct]) {
        let id = try entry.required("id").string()
        let name = try entry.optional("name")?.string() ?? ""
        var products: [CatalogProduct] = []
        for subscription in try entry.optional("subscriptions")?.elements() ?? [] {
            products.append(try self.subscription(subscription, groupId: id))
        }
        let group = SubscriptionGroup(id: id, name: name, productIds: products.map(\.id),
                                      localizations: try localizations(entry.optional("localizations")))
        return (group, products)
    }

    /// An auto-renewable subscription of the group `groupId`.
    private mutating func subscription(_ entry: JSONCursor, groupId: String) throws(TallyError) -> CatalogProduct {
        let id = try productID(entry)
        let (kind, type) = try kind(entry)
        guard kind == .autoRenewable else {
            throw type.failure("is '\(try type.string())', but subscriptionGroups[].subscriptions[] holds only "
                               + "RecurringSubscription products")
        }
        var product = try product(entry, id: id, kind: kind)
        if let declared = try entry.optional("subscriptionGroupID")?.string(), declared != groupId {
            warnings.append("\(file): \(entry.path(of: "subscriptionGroupID")) '\(declared)' differs from the "
                            + "enclosing group '\(groupId)'; the enclosing group is used")
        }
        let levelKey = try entry.required("groupNumber")
        let level = try levelKey.int()
        guard level >= 1 else { throw levelKey.failure("is \(level); levels start at 1 (the highest level of service)") }
        product.subscription = CatalogProduct.Subscription(
            groupId: groupId, level: level, period: try period(entry.required("recurringSubscriptionPeriod")),
            introductoryOffer: try introductoryOffer(entry, of: id),
            promotionalOffers: try offers(entry, "adHocOffers", .promotional, of: id),
            winBackOffers: try offers(entry, "winbackOffers", .winBack, of: id),
            offerCodes: try offers(entry, "codeOffers", .offerCode, of: id),
            billingPlans: try billingPlans(entry, of: id))
        return product
    }

    /// `introductoryOffers[0]` (v5.0+) or else the object `introductoryOffer` (null or absent: none).
    private mutating func introductoryOffer(_ entry: JSONCursor, of id: String) throws(TallyError) -> SubscriptionOffer? {
        if let first = try entry.optional("introductoryOffers")?.elements().first {
            return try offer(first, .introductory, of: id)
        }
        guard let single = try entry.optional("introductoryOffer") else { return nil }
        return try offer(single, .introductory, of: id)
    }

    private mutating func offers(_ entry: JSONCursor, _ key: String, _ kind: SubscriptionOffer.Kind,
                                 of id: String) throws(TallyError) -> [SubscriptionOffer] {
        var result: [SubscriptionOffer] = []
        for offer in try entry.optional(key)?.elements() ?? [] {
            result.append(try self.offer(offer, kind, of: id))
        }
        return result
    }

    private mutating func billingPlans(_ entry: JSONCursor, of id: String) throws(TallyError) -> [SubscriptionBillingPlan] {
        var result: [SubscriptionBillingPlan] = []
        for plan in try entry.optional("billingPlans")?.elements() ?? [] {
            let type = BillingPlanType(rawValue: try plan.required("billingPlanType").string())
            guard let price = try price(plan, "displayPrice", of: id) else {
                throw TallyError(.invalidConfiguration, "\(file): \(plan.path(of: "displayPrice")) is missing")
            }
            result.append(SubscriptionBillingPlan(type: type, price: price,
                                                  commitmentPrice: try self.price(plan, "commitmentDisplayPrice", of: id),
                                                  isEnabled: try plan.optional("isEnabled")?.bool() ?? true))
        }
        return result
    }
}
