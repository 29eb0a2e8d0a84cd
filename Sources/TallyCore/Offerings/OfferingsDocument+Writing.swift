import Foundation

extension OfferingsDocument {
    /// The document as canonical JSON (members sorted by key, no spaces, numbers as read): equal documents are
    /// equal bytes, so a version's bytes hash to its identity. ``init(jsonData:fileName:)`` reads it back.
    public func jsonBytes() -> [UInt8] { jsonTree().canonicalBytes() }

    /// The document as a JSON value.
    public func jsonTree() -> JSONTree {
        var root: [String: JSONTree] = [
            "offerings": .array(offerings.map(Self.tree)),
            "placements": .object(placements.mapValues(JSONTree.string)),
            "targeting": .array(targeting.map(Self.tree)),
            "entitlements": .object(entitlements.mapValues { .array($0.map(JSONTree.string)) }),
            "currencies": .object(currencies.mapValues { .object($0.mapValues(JSONTree.number)) }),
            "nonRenewingDurations": .object(nonRenewingDurations.mapValues { .string($0.iso8601) }),
        ]
        if let current { root["current"] = .string(current) }
        return .object(root)
    }

    /// An offering as the document and the answers write it.
    public static func tree(_ offering: Offering) -> JSONTree {
        .object(["id": .string(offering.id), "description": .string(offering.description),
                 "metadata": offering.metadata, "packages": .array(offering.packages.map { package in
                     var members: [String: JSONTree] = ["id": .string(package.id), "productId": .string(package.productId)]
                     if let metadata = package.metadata { members["metadata"] = metadata }
                     return .object(members)
                 })])
    }

    static func tree(_ rule: TargetingRule) -> JSONTree {
        var members: [String: JSONTree] = ["id": .string(rule.id)]
        if let placement = rule.placement { members["placement"] = .string(placement) }
        if let storefronts = rule.storefronts { members["storefronts"] = .array(storefronts.map(JSONTree.string)) }
        if let range = rule.appVersion {
            var bounds: [String: JSONTree] = [:]
            if let min = range.min { bounds["min"] = .string(min.description) }
            if let max = range.max { bounds["max"] = .string(max.description) }
            members["appVersion"] = .object(bounds)
        }
        switch rule.pick {
        case .offering(let id): members["offering"] = .string(id)
        case .experiment(let arms):
            members["experiment"] = .object(["arms": .array(arms.map {
                .object(["id": .string($0.id), "offering": .string($0.offering), "percent": .number($0.percent)])
            })])
        }
        return .object(members)
    }
}
