import Foundation
import TallyCore

/// `offers` of `tally-server.json`: which promotional offers the server signs (`offers.promotional`, a list of
/// `{"offerIdentifier": "…", "onlyLapsed": false, "perCustomer": 1, "customerToken": false}`), and whether the
/// eligibility route takes a customer token (`offers.introductoryEligibility.customerToken`). An offer id not listed
/// is refused with 403 `offer_not_allowed`.
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
        /// Whether the public key with a customer token for the body's `appUserId` may ask for it too
        /// (`customerToken`); otherwise only the secret key.
        public var customerToken: Bool

        /// Whether the request must name the customer.
        public var needsCustomer: Bool { onlyLapsed || perCustomer != nil }

        /// Creates a policy.
        public init(offerIdentifier: String, onlyLapsed: Bool = false, perCustomer: Int? = nil, customerToken: Bool = false) {
            self.offerIdentifier = offerIdentifier
            self.onlyLapsed = onlyLapsed
            self.perCustomer = perCustomer
            self.customerToken = customerToken
        }
    }

    /// The promotional offers the server may sign.
    public var promotional: [Promotional]
    /// Whether `POST /v1/offers/introductory/eligibility` answers the public key with a customer token for the
    /// body's `appUserId` (`offers.introductoryEligibility.customerToken`); otherwise only the secret key.
    public var eligibilityByCustomerToken: Bool

    /// Creates settings; none listed: no promotional offer is signed.
    public init(promotional: [Promotional] = [], eligibilityByCustomerToken: Bool = false) {
        self.promotional = promotional
        self.eligibilityByCustomerToken = eligibilityByCustomerToken
    }

    /// The policy of `offerIdentifier` (byte for byte); nil when not listed.
    public func promotionalPolicy(_ offerIdentifier: String) -> Promotional? {
        promotional.first { $0.offerIdentifier.utf8.elementsEqual(offerIdentifier.utf8) }
    }
}

extension ServerConfiguration {
    /// Reads `offers`: `{"promotional": [{"offerIdentifier": "…", "onlyLapsed": true, "perCustomer": 1,
    /// "customerToken": true}, …], "introductoryEligibility": {"customerToken": true}}`. A `customerToken` that is
    /// true needs `customers.tokenKeys` (`hasTokenKeys`): without them no token could ever verify.
    static func loadOffers(_ node: JSONCursor?, hasTokenKeys: Bool, reader: inout ConfigurationReader) -> OfferSettings {
        var settings = OfferSettings()
        guard let node, let members = reader.object(node, allowed: ["promotional", "introductoryEligibility"]) else {
            return settings
        }
        func customerToken(_ value: JSONCursor?, at path: String) -> Bool {
            guard let value, let allowed = reader.bool(value) else { return false }
            if allowed, !hasTokenKeys {
                reader.problem(path, "needs customers.tokenKeys: the keys customer tokens are checked with")
            }
            return allowed
        }
        if let node = members["introductoryEligibility"],
           let fields = reader.object(node, allowed: ["customerToken"]) {
            settings.eligibilityByCustomerToken = customerToken(fields["customerToken"],
                                                                at: "offers.introductoryEligibility.customerToken")
        }
        guard let list = members["promotional"], let entries = reader.array(list) else { return settings }
        for (index, entry) in entries.enumerated() {
            let path = "offers.promotional[\(index)]"
            guard let fields = reader.object(entry, allowed: ["offerIdentifier", "onlyLapsed", "perCustomer", "customerToken"])
            else { continue }
            guard let value = fields["offerIdentifier"], let id = reader.string(value), !id.isEmpty else {
                reader.problem("\(path).offerIdentifier", "is required: a non-empty string")
                continue
            }
            let onlyLapsed = fields["onlyLapsed"].flatMap { reader.bool($0) } ?? false
            let perCustomer = fields["perCustomer"].flatMap { reader.integer($0, in: 1...1_000_000) }.map { Int($0) }
            settings.promotional.append(OfferSettings.Promotional(
                offerIdentifier: id, onlyLapsed: onlyLapsed, perCustomer: perCustomer,
                customerToken: customerToken(fields["customerToken"], at: "\(path).customerToken")))
        }
        return settings
    }
}
