/// A StoreKit API whose calls can be made to fail.
public enum SandboxAPI: String, Sendable, Codable, CaseIterable {
    /// Loading products (`Load Products`).
    case products
    /// Purchasing (`Purchase`).
    case purchase
    /// Restoring / syncing (`App Store Sync`).
    case restore

    /// The API for an Xcode `_storeKitErrors` entry name, nil for APIs the sandbox does not simulate.
    public init?(xcodeName: String) {
        switch xcodeName {
        case "Load Products": self = .products
        case "Purchase": self = .purchase
        case "App Store Sync": self = .restore
        default: return nil
        }
    }
}
