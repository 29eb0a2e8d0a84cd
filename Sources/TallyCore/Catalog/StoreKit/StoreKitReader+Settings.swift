extension StoreKitReader {
    /// Reads `settings`; every key is optional and missing keys keep SKTestSession's defaults.
    /// Also sets ``currency`` from the storefront.
    mutating func settings(_ cursor: JSONCursor?) throws(TallyError) -> StoreKitSettings {
        var settings = StoreKitSettings()
        guard let cursor else { return settings }
        if let value = try cursor.optional("_locale") { settings.locale = try value.string() }
        if let value = try cursor.optional("_storefront") { settings.storefront = try value.string().uppercased() }
        if let value = try cursor.optional("_timeRate") { settings.timeRate = try value.int() }
        if let value = try cursor.optional("_compatibilityTimeRate") {
            settings.compatibilityTimeRate = try compatibilityTimeRate(value)
        }
        try flag(cursor, "_askToBuyEnabled", \.askToBuyEnabled, &settings)
        try flag(cursor, "_billingIssuesEnabled", \.interruptedPurchasesEnabled, &settings)
        try flag(cursor, "_renewalBillingIssuesEnabled", \.renewalBillingIssuesEnabled, &settings)
        try flag(cursor, "_billingGracePeriodEnabled", \.billingGracePeriodEnabled, &settings)
        try flag(cursor, "_disableDialogs", \.disableDialogs, &settings)
        try flag(cursor, "_failTransactionsEnabled", \.failTransactionsEnabled, &settings)
        settings.storeKitError = try cursor.optional("_storeKitError")?.int()
        for entry in try cursor.optional("_storeKitErrors")?.elements() ?? [] {
            settings.storeKitErrors.append(try simulatedError(entry))
        }
        if let code = Storefronts.currencyCode(for: settings.storefront) {
            currency = code
        } else {
            currency = "USD"
            warnings.append("\(file): settings._storefront '\(settings.storefront)' is not a storefront Tally knows "
                            + "the currency of; prices are read as USD")
        }
        return settings
    }

    private func flag(_ cursor: JSONCursor, _ key: String, _ field: WritableKeyPath<StoreKitSettings, Bool>,
                      _ settings: inout StoreKitSettings) throws(TallyError) {
        if let value = try cursor.optional(key) { settings[keyPath: field] = try value.bool() }
    }

    /// A bare integer (v1.2/2.0) or `{"3": n}` (later versions); the integer member with the first key in sorted order is taken.
    private func compatibilityTimeRate(_ value: JSONCursor) throws(TallyError) -> Int? {
        if case .number = value.tree { return try value.int() }
        for (_, member) in try value.members() {
            if case .number = member.tree { return try member.int() }
        }
        return nil
    }

    /// One `_storeKitErrors` element: `{name, enabled, current: null | {index, type}}`; `current` may be absent.
    private func simulatedError(_ entry: JSONCursor) throws(TallyError) -> StoreKitSettings.SimulatedError {
        let name = try entry.required("name").string()
        let enabled = try entry.optional("enabled")?.bool() ?? false
        let current = try entry.optional("current")
        return StoreKitSettings.SimulatedError(name: name, enabled: enabled,
                                               errorType: try current?.optional("type")?.string(),
                                               errorIndex: try current?.optional("index")?.int())
    }
}
