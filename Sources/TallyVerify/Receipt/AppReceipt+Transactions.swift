import TallyCore

extension AppReceipt {
    /// The environment the receipt type (0) names: `Production` → production, `ProductionSandbox` →
    /// sandbox, `Xcode` → xcode; nil when absent, other values kept as they are.
    public var environment: StoreEnvironment? {
        switch receiptType {
        case nil: nil
        case "Production": .production
        case "ProductionSandbox", "Sandbox": .sandbox
        case "Xcode": .xcode
        case let other?: StoreEnvironment(rawValue: other)
        }
    }

    /// Every in-app record as a Tally transaction, with this receipt's bundle id and environment.
    public func transactions() -> [StoreTransaction] {
        inAppPurchases.map { $0.transaction(bundleId: bundleId, environment: environment) }
    }
}
