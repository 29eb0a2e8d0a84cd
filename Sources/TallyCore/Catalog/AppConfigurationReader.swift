import Foundation


/// Reads the parts of `tally.json`.
struct AppConfigurationReader {
    /// The members of an object map (none when absent). A key given twice cannot be seen: Foundation's
    /// `JSONDecoder` keeps one of its values (documented in `docs/tally-json.md`).
    func members(_ map: JSONCursor?) throws(TallyError) -> [(key: String, value: JSONCursor)] {
        guard let map else { return [] }
        return try map.members()
    }

    /// `{"feature": ["product.id", ...]}`; each list is non-empty.
    func entitlements(_ map: JSONCursor?) throws(TallyError) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for (feature, list) in try members(map) {
            let ids = try list.elements().map { (entry) throws(TallyError) in try productId(entry) }
            guard !ids.isEmpty else { throw list.failure("is empty; list the product ids that grant \(feature)") }
            result[feature] = ids
        }
        return result
    }

    /// `{"coins": {"product.id": 10}}`; amounts are JSON numbers above 0, read exactly.
    func currencies(_ map: JSONCursor?) throws(TallyError) -> [String: [String: Decimal]] {
        var result: [String: [String: Decimal]] = [:]
        for (currency, products) in try members(map) {
            var amounts: [String: Decimal] = [:]
            for (id, amountKey) in try members(products) {
                let amount = try amountKey.decimal()
                guard amount > 0 else { throw amountKey.failure("is \(amount); an amount credited must be above 0") }
                amounts[id] = amount
            }
            guard !amounts.isEmpty else { throw products.failure("is empty; map product ids to the amount of \(currency) they credit") }
            result[currency] = amounts
        }
        return result
    }

    /// `{"product.id": "P1M"}`.
    func durations(_ map: JSONCursor?) throws(TallyError) -> [String: SubscriptionDuration] {
        var result: [String: SubscriptionDuration] = [:]
        for (id, periodKey) in try members(map) {
            let text = try periodKey.string()
            do {
                result[id] = try SubscriptionDuration(iso8601: text)
            } catch {
                throw periodKey.failure("'\(text)' is not an ISO 8601 period such as P3D, P1W, P1M or P1Y")
            }
        }
        return result
    }

    private func productId(_ entry: JSONCursor) throws(TallyError) -> String {
        let id = try entry.string()
        guard !id.isEmpty else { throw entry.failure("is empty; expected a product id") }
        return id
    }
}
