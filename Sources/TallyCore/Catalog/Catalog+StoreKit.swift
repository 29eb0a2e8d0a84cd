import Foundation


// PLACEHOLDER: the .storekit reader is being written in a branch; this keeps the package building.
extension Catalog {
    /// Reads an Xcode StoreKit configuration file (JSON). `fileName` names the file in error messages.
    public init(storeKitData data: Data, fileName: String) throws {
        throw TallyError(.invalidConfiguration, "\(fileName): reader not written yet")
    }
}

extension AppConfiguration {
    /// Reads a `tally.json` app configuration. `fileName` names the file in error messages.
    public init(jsonData data: Data, fileName: String) throws {
        throw TallyError(.invalidConfiguration, "\(fileName): reader not written yet")
    }
}

extension Product {
    /// The price formatted for a locale the way StoreKit shows it ("$0.99", "0,99 €", "¥120").
    public func displayPrice(locale: String) -> String {
        "\(price) \(currency)"
    }
}
