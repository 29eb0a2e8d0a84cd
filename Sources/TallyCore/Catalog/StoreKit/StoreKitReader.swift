import Foundation


/// Turns the JSON of an Xcode StoreKit configuration file into a ``Catalog``.
///
/// Tolerant where Xcode itself varies (see `shared/docs/storekit-format.md` §10): any major version, unknown
/// keys ignored, every settings key optional, `referenceName` null, prices `""`/`"2,99"`/`"0.0"`, both
/// spellings of the introductory offer. Strict where a guess would change what is sold: an unknown `type`
/// string (such as the hand-written `"Recurring Subscription"` or `"nonConsumable"`) is an error naming
/// the key, because the kind decides how purchases are credited.
struct StoreKitReader {
    /// The file name used in messages.
    let file: String
    /// Things tolerated that a person should know about.
    var warnings: [String] = []
    /// The currency of every price in the file, from the storefront.
    var currency = "USD"

    /// Reads a whole file.
    static func catalog(from data: Data, fileName: String) throws(TallyError) -> Catalog {
        var reader = StoreKitReader(file: fileName)
        let root = try reader.document(from: data)
        return try reader.catalog(from: root)
    }

    private mutating func catalog(from root: JSONCursor) throws(TallyError) -> Catalog {
        let version = try version(of: root)
        let identifier = try root.optional("identifier")?.string()
        let settings = try settings(root.optional("settings"))
        var products: [CatalogProduct] = []
        for entry in try root.optional("products")?.elements() ?? [] {
            products.append(try product(entry, in: "products"))
        }
        var groups: [SubscriptionGroup] = []
        for entry in try root.optional("subscriptionGroups")?.elements() ?? [] {
            let (group, subscriptions) = try subscriptionGroup(entry)
            groups.append(group)
            products += subscriptions
        }
        for entry in try root.optional("nonRenewingSubscriptions")?.elements() ?? [] {
            products.append(try product(entry, in: "nonRenewingSubscriptions"))
        }
        products = removingDuplicates(products)
        let byId = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for index in groups.indices {
            let groupId = groups[index].id
            groups[index].productIds.removeAll { byId[$0]?.subscription?.groupId != groupId }
        }
        return Catalog(version: version, identifier: identifier, products: products, subscriptionGroups: groups,
                       settings: settings, warnings: warnings, fileName: file)
    }

    /// `version` is `{"major": 4, "minor": 0}`; a bare integer (`"version": 1`) from hand edits is accepted.
    private func version(of root: JSONCursor) throws(TallyError) -> Catalog.Version {
        guard let version = try root.optional("version") else {
            throw TallyError(.invalidConfiguration, "\(file): version is missing, so this is not an Xcode StoreKit "
                             + "configuration file; create one in Xcode with File > New > File > StoreKit Configuration File")
        }
        if case .number = version.tree {
            return Catalog.Version(major: try version.int(), minor: 0)
        }
        let major = try version.required("major").int()
        let minor = try version.optional("minor")?.int() ?? 0
        guard major >= 1, minor >= 0 else { throw version.failure("\(major).\(minor) is not a StoreKit file version") }
        return Catalog.Version(major: major, minor: minor)
    }

    /// Keeps the first product of each id and warns once per repeated id.
    private mutating func removingDuplicates(_ products: [CatalogProduct]) -> [CatalogProduct] {
        var counts: [String: Int] = [:]
        var result: [CatalogProduct] = []
        for product in products {
            counts[product.id, default: 0] += 1
            if counts[product.id] == 1 { result.append(product) }
        }
        for product in result where counts[product.id, default: 0] > 1 {
            warnings.append("\(file): product id '\(product.id)' appears \(counts[product.id, default: 0]) times; "
                            + "the first one is used")
        }
        return result
    }
}
