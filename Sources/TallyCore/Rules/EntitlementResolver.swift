import Foundation


/// Turns what the customer holds into active features from `tally.json`.
struct EntitlementResolver {
    /// Product id → when the product stops granting (nil = never).
    private var grants: [String: Date?] = [:]

    /// Collects the products that grant features now.
    init(nonConsumables: [String], subscriptions: [CustomerState.Subscription],
         nonRenewing: [CustomerState.NonRenewing]) {
        for productId in nonConsumables { grants[productId] = .some(nil) }
        for subscription in subscriptions where subscription.status.isEntitled {
            let end = subscription.status == .inGracePeriod ? subscription.gracePeriodExpiresDate
                : subscription.expiresDate
            grant(subscription.productId, until: end)
        }
        for item in nonRenewing where item.isActive { grant(item.productId, until: item.expiresDate) }
    }

    private mutating func grant(_ productId: String, until end: Date?) {
        switch grants[productId] {
        case .none: grants[productId] = .some(end)
        case .some(.none): break
        case .some(.some(let current)): grants[productId] = .some(end.map { max($0, current) })
        }
    }

    /// Active features sorted by name; each lists its granting products, sorted, and the latest expiry
    /// (nil when a non-consumable grants it).
    func entitlements(_ features: [String: [String]]) -> [CustomerState.Entitlement] {
        var result: [CustomerState.Entitlement] = []
        for feature in features.keys.sorted() {
            let granting = Set(features[feature] ?? []).filter { grants[$0] != nil }.sorted()
            guard !granting.isEmpty else { continue }
            var expires: Date? = .distantPast
            for productId in granting {
                guard let end = grants[productId] ?? nil else {
                    expires = nil
                    break
                }
                expires = expires.map { max($0, end) }
            }
            result.append(CustomerState.Entitlement(feature: feature, productIds: granting, expiresDate: expires))
        }
        return result
    }
}
