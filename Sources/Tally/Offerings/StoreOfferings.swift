import Foundation
import TallyCore

/// What ``Store/offerings(placement:)`` answers: the offerings the app's server decided for a placement (or the
/// app's cached copy of them, or the bundled catalog), each package with its ``StoreProduct`` (localized name and
/// price from StoreKit or the sandbox).
public struct StoreOfferings: Sendable, Hashable {
    /// The offering to show for this placement and customer; nil when the server chose none.
    public var current: StoreOffering?
    /// Every offering of the answer, in the server's order (the current one among them).
    public var all: [StoreOffering]
    /// The placement asked for; nil: none (the document's current offering).
    public var placement: String?
    /// The version of the server's offerings document the answer was chosen from; nil for ``OfferingsSource/bundled``.
    public var version: Int64?
    /// The experiment arm the customer landed in, when an experiment chose ``current``.
    public var experiment: ExperimentAssignment?
    /// Where the answer comes from.
    public var source: OfferingsSource
    /// Packages left out because the store does not know their product (not in App Store Connect, not in the
    /// sandbox, not sold in this storefront): never thrown, reported here and in ``Store/diagnostics``.
    public var skippedPackages: [SkippedPackage]
    /// When the server gave this answer (the device's clock; for a 304, when it confirmed it); nil for ``OfferingsSource/bundled``.
    public var answeredAt: Date?
    /// Why the server's answer of now is not the one shown (unreachable, rate-limited, an answer that does not
    /// decode); nil when ``source`` is ``OfferingsSource/server`` or there is no server link.
    public var problem: ServerProblem?

    /// Creates an answer.
    public init(current: StoreOffering?, all: [StoreOffering], placement: String?, version: Int64?,
                experiment: ExperimentAssignment?, source: OfferingsSource, skippedPackages: [SkippedPackage] = [],
                answeredAt: Date? = nil, problem: ServerProblem? = nil) {
        self.current = current
        self.all = all
        self.placement = placement
        self.version = version
        self.experiment = experiment
        self.source = source
        self.skippedPackages = skippedPackages
        self.answeredAt = answeredAt
        self.problem = problem
    }

    /// The offering with `id`, compared as bytes.
    public func offering(id: String) -> StoreOffering? {
        all.first { $0.id.utf8.elementsEqual(id.utf8) }
    }

    /// Whether `other` shows the same (offerings, choice, version, source), whenever it was answered.
    func showsSame(as other: StoreOfferings) -> Bool {
        current == other.current && all == other.all && version == other.version && source == other.source
            && experiment == other.experiment && skippedPackages == other.skippedPackages
    }
}

/// Where a ``StoreOfferings`` comes from.
public enum OfferingsSource: String, Sendable, Hashable, Codable {
    /// The server answered now (`200`), or confirmed the kept answer unchanged (`304` on its `ETag`).
    case server
    /// The answer the server gave last, kept in the data directory (`offerings-cache.json`): the server cannot be
    /// reached now, or none was asked yet (``Store/cachedOfferings(placement:)``, at cold start).
    case cache
    /// No server link, or neither the server nor a kept answer: one offering (`bundled`) with a package for every
    /// product of the app's catalog, in the catalog's order.
    case bundled
}

/// One offering with its products: what a paywall shows.
public struct StoreOffering: Sendable, Hashable, Identifiable {
    /// The offering's id (`default`, `intro`).
    public var id: String
    /// What it is for, as the document says.
    public var description: String
    /// The app's own metadata (titles, colours, A/B labels): a JSON object.
    public var metadata: JSONTree
    /// The packages whose product the store knows, in the document's order.
    public var packages: [StorePackage]

    /// Creates an offering.
    public init(id: String, description: String, metadata: JSONTree, packages: [StorePackage]) {
        self.id = id
        self.description = description
        self.metadata = metadata
        self.packages = packages
    }

    /// The id of the offering made of the bundled catalog (``OfferingsSource/bundled``).
    public static let bundledId = "bundled"
}

/// One package of a ``StoreOffering``: the app's name for it and the product it sells.
public struct StorePackage: Sendable, Hashable, Identifiable {
    /// The package's id within its offering (`monthly`, `lifetime`).
    public var id: String
    /// The product, localized (pass it to ``Store/purchase(_:quantity:appAccountToken:offer:context:)-(StoreProduct,_,_,_,_)``).
    public var product: StoreProduct
    /// The app's own metadata for the package; nil when none.
    public var metadata: JSONTree?

    /// Creates a package.
    public init(id: String, product: StoreProduct, metadata: JSONTree? = nil) {
        self.id = id
        self.product = product
        self.metadata = metadata
    }
}

/// A package left out of a ``StoreOfferings``: its product is not one the store sells.
public struct SkippedPackage: Sendable, Hashable {
    /// The offering it belongs to.
    public var offeringId: String
    /// The package's id.
    public var packageId: String
    /// The product the store does not know.
    public var productId: String

    /// Creates a skipped package.
    public init(offeringId: String, packageId: String, productId: String) {
        self.offeringId = offeringId
        self.packageId = packageId
        self.productId = productId
    }
}
