import Foundation
import TallyCore

/// `offers` of `tally-server.json`: which promotional offers the server signs (`offers.promotional`, a list of
/// `{"offerIdentifier": "…", "onlyLapsed": false, "perCustomer": 1}`). An offer id not listed is refused with 403 `offer_not_allowed`.
public struct OfferSettings: Sendable, Hashable {
    /// One promotional offer the server may sign, and who may get it.
    public struct Promotional: Sendable, Hashable {
        /// The offer id (`offerID` of the product's `adHocOffers`), compared as bytes.
        public var offerIdentifier: String
        /// Only for a customer who lapsed in the product's group (`CustomerState.hasLapsed(groupId:)`); the
        /// request must then name the customer (`appUserId`).
        public var onlyLapsed: Bool
        /// At most this many signatures per customer (`perCustomer`, counted by the store); nil: no limit. The
        /// request must then name the customer (`appUserId`).
        public var perCustomer: Int?

        /// Whether the request must name the customer.
        public var needsCustomer: Bool { onlyLapsed || perCustomer != nil }

        /// Creates a policy.
        public init(offerIdentifier: String, onlyLapsed: Bool = false, perCustomer: Int? = nil) {
            self.offerIdentifier = offerIdentifier
            self.onlyLapsed = onlyLapsed
            self.perCustomer = perCustomer
        }
    }

    /// The promotional offers the server may sign.
    public var promotional: [Promotional]

    /// Creates settings; none listed: no promotional offer is signed.
    public init(promotional: [Promotional] = []) {
        self.promotional = promotional
    }

    /// The policy of `offerIdentifier` (byte for byte); nil when not listed.
    public func promotionalPolicy(_ offerIdentifier: String) -> Promotional? {
        promotional.first { $0.offerIdentifier.utf8.elementsEqual(offerIdentifier.utf8) }
    }
}

extension ServerConfiguration {
    /// Reads `offers`: `{"promotional": [{"offerIdentifier": "…", "onlyLapsed": true, "perCustomer": 1}, …]}`.
    static func loadOffers(_ node: JSONCursor?, reader: inout ConfigurationReader) -> OfferSettings {
        var settings = OfferSettings()
        guard let node, let members = reader.object(node, allowed: ["promotional"]),
              let list = members["promotional"] else { return settings }
        guard let entries = reader.array(list) else { return settings }
        for (index, entry) in entries.enumerated() {
            guard let fields = reader.object(entry, allowed: ["offerIdentifier", "onlyLapsed", "perCustomer"]) else { continue }
            guard let value = fields["offerIdentifier"], let id = reader.string(value), !id.isEmpty else {
                reader.problem("offers.promotional[\(index)].offerIdentifier", "is required: a non-empty string")
                continue
            }
            let onlyLapsed = fields["onlyLapsed"].flatMap { reader.bool($0) } ?? false
            let perCustomer = fields["perCustomer"].flatMap { reader.integer($0, in: 1...1_000_000) }.map { Int($0) }
            settings.promotional.append(OfferSettings.Promotional(offerIdentifier: id, onlyLapsed: onlyLapsed,
                                                                  perCustomer: perCustomer))
        }
        return settings
    }
}
