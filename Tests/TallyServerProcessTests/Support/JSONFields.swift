import Foundation

/// Reading fields out of parsed JSON objects.
enum JSONFields {
    /// A JSON number as an exact decimal (nil when absent or not a number).
    static func decimal(_ value: Any?) -> Decimal? {
        // (Not excluding Bool: on Linux an NSNumber 0 or 1 also casts to Bool.)
        (value as? NSNumber)?.decimalValue
    }

    /// `customer.balances[currency]`, zero when the currency is absent.
    static func balance(_ customer: [String: Any], _ currency: String = "coins") -> Decimal? {
        guard let balances = customer["balances"] as? [String: Any] else { return nil }
        guard let value = balances[currency] else { return 0 }
        return decimal(value)
    }

    /// `customer.debts[currency]`, zero when the currency is absent.
    static func debt(_ customer: [String: Any], _ currency: String = "coins") -> Decimal? {
        guard let debts = customer["debts"] as? [String: Any] else { return nil }
        guard let value = debts[currency] else { return 0 }
        return decimal(value)
    }

    /// The feature names of `customer.entitlements`.
    static func features(_ customer: [String: Any]) -> Set<String> {
        Set((customer["entitlements"] as? [[String: Any]] ?? []).compactMap { $0["feature"] as? String })
    }

    /// `customer.nonConsumables`.
    static func nonConsumables(_ customer: [String: Any]) -> [String] {
        customer["nonConsumables"] as? [String] ?? []
    }

    /// Whether two parsed JSON values are equal.
    static func equal(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case let (a as [String: Any], b as [String: Any]):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { equal(value, $0) } ?? false }
        case let (a as [Any], b as [Any]):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case let (a as String, b as String):
            return a == b
        case (is NSNull, is NSNull):
            return true
        case let (a as NSNumber, b as NSNumber):
            return a.decimalValue == b.decimalValue
        default:
            return false
        }
    }

    /// The items of a history with `kind`.
    static func items(_ history: [[String: Any]], kind: String) -> [[String: Any]] {
        history.filter { $0["kind"] as? String == kind }
    }

    /// The transaction ids of a history's `transaction` items.
    static func transactionIds(_ history: [[String: Any]]) -> [String] {
        items(history, kind: "transaction").compactMap { $0["transactionId"] as? String }
    }
}
