import Foundation

/// A targeting rule of the offerings document: when its conditions hold for a request, it picks the offering (or
/// the experiment arm) the customer sees. Rules are tried in order; the first that applies wins.
public struct TargetingRule: Sendable, Hashable {
    /// The rule's id, unique in the document.
    public var id: String
    /// The placement the rule is for; nil: every placement (and a request naming none).
    public var placement: String?
    /// Storefronts (ISO 3166-1 alpha-3, StoreKit's `Storefront.countryCode`) the rule is for; nil: any, also unknown.
    public var storefronts: [String]?
    /// The app versions the rule is for; nil: any, also unknown.
    public var appVersion: AppVersionRange?
    /// What the rule picks.
    public var pick: TargetingPick

    /// Creates a rule.
    public init(id: String, placement: String? = nil, storefronts: [String]? = nil,
                appVersion: AppVersionRange? = nil, pick: TargetingPick) {
        self.id = id
        self.placement = placement
        self.storefronts = storefronts
        self.appVersion = appVersion
        self.pick = pick
    }

    /// Whether the rule's conditions hold for `placement` and `context`. A condition on something the request does
    /// not tell (no storefront, no app version) does not hold; an experiment needs an `appUserId`.
    public func applies(placement: String?, context: OfferingsContext) -> Bool {
        if let own = self.placement, !own.utf8.elementsEqual((placement ?? "").utf8) { return false }
        if let storefronts {
            guard let storefront = context.storefront,
                  storefronts.contains(where: { $0.utf8.elementsEqual(storefront.utf8) }) else { return false }
        }
        if let appVersion {
            guard let text = context.appVersion, let version = AppVersionNumber(text),
                  appVersion.contains(version) else { return false }
        }
        if case .experiment = pick, context.appUserId == nil { return false }
        return true
    }
}

/// What a ``TargetingRule`` picks: one offering, or an experiment's arms.
public enum TargetingPick: Sendable, Hashable {
    /// This offering (by id).
    case offering(String)
    /// A stable percentage split of customers (``ExperimentBucket``) between arms.
    case experiment([ExperimentArm])
}

/// One arm of an experiment: a share of customers and the offering they see.
public struct ExperimentArm: Sendable, Hashable {
    /// The arm's id (`a`, `b`), unique in its experiment; answered to the app so it can report it.
    public var id: String
    /// The offering the arm shows.
    public var offering: String
    /// The arm's share in basis points (0.01 %): the arms of one experiment sum to 10,000.
    public var basisPoints: Int

    /// Creates an arm.
    public init(id: String, offering: String, basisPoints: Int) {
        self.id = id
        self.offering = offering
        self.basisPoints = basisPoints
    }

    /// The share as the document writes it, in percent (`50`, `33.33`).
    public var percent: Decimal { Decimal(basisPoints) / 100 }
}

/// Which customers see which arm: a hash of the experiment's id and the `appUserId` (as bytes) to one of
/// 10,000 buckets, so the same customer always lands in the same arm, and different experiments split independently.
public enum ExperimentBucket {
    /// The number of buckets: one per basis point.
    public static let count = 10_000

    /// The bucket of `appUserId` in experiment `experimentId`: FNV-1a 64 over the id bytes, a zero byte and the
    /// customer's bytes, finished with MurmurHash3's 64-bit mixer so nearby ids spread evenly.
    public static func bucket(experimentId: String, appUserId: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        experimentId.utf8.forEach(add)
        add(0)
        appUserId.utf8.forEach(add)
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return Int(hash % UInt64(count))
    }

    /// The arm of `arms` (basis points summing to ``count``) that `appUserId` lands in.
    public static func arm(of arms: [ExperimentArm], experimentId: String, appUserId: String) -> ExperimentArm? {
        var bucket = bucket(experimentId: experimentId, appUserId: appUserId)
        for arm in arms {
            if bucket < arm.basisPoints { return arm }
            bucket -= arm.basisPoints
        }
        return nil
    }
}

/// An inclusive range of app versions; either end may be open.
public struct AppVersionRange: Sendable, Hashable {
    /// The lowest version the range holds; nil: no lower bound.
    public var min: AppVersionNumber?
    /// The highest version the range holds; nil: no upper bound.
    public var max: AppVersionNumber?

    /// Creates a range.
    public init(min: AppVersionNumber? = nil, max: AppVersionNumber? = nil) {
        self.min = min
        self.max = max
    }

    /// Whether `version` is within the range.
    public func contains(_ version: AppVersionNumber) -> Bool {
        (min.map { $0 <= version } ?? true) && (max.map { version <= $0 } ?? true)
    }
}

/// A dotted app version (`CFBundleShortVersionString`: `2`, `2.1`, `2.10.3`), compared number by number, missing
/// numbers as 0 (`2` equals `2.0`).
public struct AppVersionNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numbers, as written.
    public let parts: [Int]

    /// Reads `text`: one to four dot-separated numbers of at most 9 digits each; nil otherwise.
    public init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(pieces.count) else { return nil }
        var parts: [Int] = []
        for piece in pieces {
            guard (1...9).contains(piece.utf8.count), piece.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let number = Int(piece) else { return nil }
            parts.append(number)
        }
        self.parts = parts
    }

    public var description: String { parts.map(String.init).joined(separator: ".") }

    private func part(_ index: Int) -> Int { index < parts.count ? parts[index] : 0 }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        for index in 0..<4 where lhs.part(index) != rhs.part(index) { return lhs.part(index) < rhs.part(index) }
        return false
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { (0..<4).allSatisfy { lhs.part($0) == rhs.part($0) } }

    public func hash(into hasher: inout Hasher) { (0..<4).forEach { hasher.combine(part($0)) } }
}

/// What a request for offerings tells about its customer, for targeting.
public struct OfferingsContext: Sendable, Hashable {
    /// The customer; nil: anonymous to the server (experiments are skipped).
    public var appUserId: String?
    /// The storefront's ISO 3166-1 alpha-3 code (`USA`).
    public var storefront: String?
    /// The app's version (`2.1`).
    public var appVersion: String?

    /// Creates a context.
    public init(appUserId: String? = nil, storefront: String? = nil, appVersion: String? = nil) {
        self.appUserId = appUserId
        self.storefront = storefront
        self.appVersion = appVersion
    }
}
