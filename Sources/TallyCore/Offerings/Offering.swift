/// One thing an app can show on a paywall: an ordered list of packages (each naming a product) with the app's own
/// metadata (titles, colours, A/B labels), as the server's offerings document holds it (docs/offerings.md).
public struct Offering: Sendable, Hashable {
    /// The offering's id (`default`, `intro`): at most ``OfferingsLimits/maxIdBytes`` UTF-8 bytes, compared as bytes.
    public var id: String
    /// What the offering is for, for the people editing it.
    public var description: String
    /// A JSON object for the app's own use; Tally only keeps it (numbers exactly).
    public var metadata: JSONTree
    /// The packages in the order the app should show them.
    public var packages: [OfferingPackage]

    /// Creates an offering.
    public init(id: String, description: String = "", metadata: JSONTree = .object([:]),
                packages: [OfferingPackage]) {
        self.id = id
        self.description = description
        self.metadata = metadata
        self.packages = packages
    }
}

/// One package of an ``Offering``: a product under the app's own name for it (`monthly`, `lifetime`).
public struct OfferingPackage: Sendable, Hashable {
    /// The package's id, unique within its offering.
    public var id: String
    /// The product it sells (a product id of the catalog).
    public var productId: String
    /// A JSON object for the app's own use; nil when none was given.
    public var metadata: JSONTree?

    /// Creates a package.
    public init(id: String, productId: String, metadata: JSONTree? = nil) {
        self.id = id
        self.productId = productId
        self.metadata = metadata
    }
}

/// The bounds of an offerings document: what the server accepts, so one document never grows without limit.
public enum OfferingsLimits {
    /// The longest id (offering, package, placement, rule, experiment arm), in UTF-8 bytes.
    public static let maxIdBytes = 128
    /// The most offerings in a document.
    public static let maxOfferings = 200
    /// The most packages in one offering.
    public static let maxPackages = 50
    /// The most placements.
    public static let maxPlacements = 200
    /// The most targeting rules.
    public static let maxRules = 100
    /// The most arms of one experiment.
    public static let maxArms = 20
    /// The most storefronts one rule names.
    public static let maxStorefronts = 300
}
