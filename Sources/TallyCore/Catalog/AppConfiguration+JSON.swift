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
        let root = try JSONCursor.document(from: data, fileName: fileName,
                                           expected: "an object with \(Self.jsonKeys.joined(separator: ", "))")
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
