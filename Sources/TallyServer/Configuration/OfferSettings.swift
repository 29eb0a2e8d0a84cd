import Foundation
import TallyCore

/// `offers` of `tally-server.json`: which promotional offers the server signs (`offers.promotional`, a list of
/// `{"offerIdentifier": "…"}`). An offer id not listed is refused with 403 `offer_not_allowed`.
public struct OfferSettings: Sendable, Hashable {
    /// The promotional offer ids the server may sign, compared as bytes.
    public var promotionalOfferIds: [String]

    /// Creates settings; none listed: no promotional offer is signed.
    public init(promotionalOfferIds: [String] = []) {
        self.promotionalOfferIds = promotionalOfferIds
    }

    /// Whether `offerIdentifier` is listed (byte for byte).
    public func allowsPromotional(_ offerIdentifier: String) -> Bool {
        promotionalOfferIds.contains { Array($0.utf8) == Array(offerIdentifier.utf8) }
    }
}

extension ServerConfiguration {
    /// Reads `offers`: `{"promotional": [{"offerIdentifier": "…"}, …]}`.
    static func loadOffers(_ node: JSONCursor?, reader: inout ConfigurationReader) -> OfferSettings {
        var settings = OfferSettings()
        guard let node, let members = reader.object(node, allowed: ["promotional"]),
              let list = members["promotional"] else { return settings }
        guard let entries = reader.array(list) else { return settings }
        for (index, entry) in entries.enumerated() {
            guard let fields = reader.object(entry, allowed: ["offerIdentifier"]) else { continue }
            guard let value = fields["offerIdentifier"], let id = reader.string(value), !id.isEmpty else {
                reader.problem("offers.promotional[\(index)].offerIdentifier", "is required: a non-empty string")
                continue
            }
            settings.promotionalOfferIds.append(id)
        }
        return settings
    }
}
