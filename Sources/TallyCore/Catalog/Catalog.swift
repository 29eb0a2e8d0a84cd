/// Everything a store sells: the products of a .storekit file, its subscription groups and its settings.
public struct Catalog: Sendable, Hashable, Codable {
    /// The file format version (`version.major`, `version.minor`).
    public struct Version: Sendable, Hashable, Codable {
        /// Major version.
        public var major: Int
        /// Minor version.
        public var minor: Int
        /// Creates a version.
        public init(major: Int, minor: Int) {
            self.major = major
            self.minor = minor
        }
    }

    /// The file format version.
    public var version: Version
    /// The file's `identifier`, absent in v1.0 files.
    public var identifier: String?
    /// All products in file order: `products`, then subscriptions group by group, then `nonRenewingSubscriptions`.
    public var products: [CatalogProduct]
    /// Subscription groups in file order.
    public var subscriptionGroups: [SubscriptionGroup]
    /// The initial StoreKit Testing settings.
    public var settings: StoreKitSettings
    /// The name of the file the catalog was read from (`Market.storekit`), for messages.
    public var fileName: String?
    /// Things the reader tolerated but a person should know about (a repeated product id, an empty price).
    public var warnings: [String]

    /// Creates a catalog.
    public init(version: Version = Version(major: 4, minor: 0), identifier: String? = nil, products: [CatalogProduct],
                subscriptionGroups: [SubscriptionGroup] = [], settings: StoreKitSettings = StoreKitSettings(),
                warnings: [String] = [], fileName: String? = nil) {
        self.version = version
        self.identifier = identifier
        self.products = products
        self.subscriptionGroups = subscriptionGroups
        self.settings = settings
        self.warnings = warnings
        self.fileName = fileName
    }

    /// The product with this id (the first one, if a file repeats an id).
    public func product(_ id: String) -> CatalogProduct? {
        products.first { $0.id == id }
    }
}
