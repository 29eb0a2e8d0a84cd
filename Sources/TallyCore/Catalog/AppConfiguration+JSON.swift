import Foundation


extension AppConfiguration {
    /// The top-level keys of `tally.json`; any other key is an error, so that a typo is never ignored.
    public static let jsonKeys = ["bundleId", "entitlements", "currencies", "nonRenewingDurations"]

    /// Reads a `tally.json` app configuration (format: `docs/tally-json.md`). `fileName` names the file in
    /// error messages. Amounts are read exactly from the number text as `Decimal`.
    ///
    /// Throws ``TallyError`` (`invalidConfiguration`) naming the file and key: not JSON, an unknown top-level
    /// key, a missing `bundleId`, an amount that is not a number above 0, a period that is not ISO 8601.
    public init(jsonData data: Data, fileName: String) throws(TallyError) {
        let root = try AppConfigurationReader.document(from: data, fileName: fileName)
        for (key, value) in try root.members() where !Self.jsonKeys.contains(key) {
            throw value.failure("is not a tally.json key; the keys are \(Self.jsonKeys.joined(separator: ", "))")
        }
        let bundleKey = try root.required("bundleId")
        let bundleId = try bundleKey.string()
        guard !bundleId.trimmingCharacters(in: .whitespaces).isEmpty else { throw bundleKey.failure("is empty") }
        let reader = AppConfigurationReader()
        self.init(bundleId: bundleId,
                  entitlements: try reader.entitlements(root.optional("entitlements")),
                  currencies: try reader.currencies(root.optional("currencies")),
                  nonRenewingDurations: try reader.durations(root.optional("nonRenewingDurations")))
    }
}

/// Reads the parts of `tally.json`.
struct AppConfigurationReader {
    /// Parses the file into a JSON object.
    static func document(from data: Data, fileName: String) throws(TallyError) -> JSONCursor {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let tree: JSONTree
        do {
            tree = try JSONTreeParser.parse(bytes)
        } catch {
            throw TallyError(.invalidConfiguration,
                             "\(fileName) is not valid JSON: \(error.message) at line \(error.line), column \(error.column)")
        }
        guard case .object = tree else {
            throw TallyError(.invalidConfiguration, "\(fileName): the top level is \(tree.typeName); expected an object "
                             + "with bundleId, entitlements, currencies and nonRenewingDurations")
        }
        return JSONCursor(tree: tree, path: "", file: fileName)
    }

    /// The members of an object map (none when absent); a key given twice is an error (the second would silently win).
    func uniqueMembers(_ map: JSONCursor?) throws(TallyError) -> [(key: String, value: JSONCursor)] {
        guard let map else { return [] }
        let members = try map.members()
        var seen: Set<String> = []
        for member in members where !seen.insert(member.key).inserted {
            throw member.value.failure("appears twice")
        }
        return members
    }

    /// `{"feature": ["product.id", ...]}`; each list is non-empty.
    func entitlements(_ map: JSONCursor?) throws(TallyError) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for (feature, list) in try uniqueMembers(map) {
            let ids = try list.elements().map { (entry) throws(TallyError) in try productId(entry) }
            guard !ids.isEmpty else { throw list.failure("is empty; list the product ids that grant \(feature)") }
            result[feature] = ids
        }
        return result
    }

    /// `{"coins": {"product.id": 10}}`; amounts are JSON numbers above 0, read exactly.
    func currencies(_ map: JSONCursor?) throws(TallyError) -> [String: [String: Decimal]] {
        var result: [String: [String: Decimal]] = [:]
        for (currency, products) in try uniqueMembers(map) {
            var amounts: [String: Decimal] = [:]
            for (id, amountKey) in try uniqueMembers(products) {
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
    func durations(_ map: JSONCursor?) throws(TallyError) -> [String: SubscriptionPeriod] {
        var result: [String: SubscriptionPeriod] = [:]
        for (id, periodKey) in try uniqueMembers(map) {
            let text = try periodKey.string()
            do {
                result[id] = try SubscriptionPeriod(iso8601: text)
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
