import TallyCore


/// A renewal info as the customer file keeps it: the verified payload with its signed form. The signed form is
/// nil only for a copy read from a file written before Tally kept them (format 2 and older), never trusted.
struct StoredRenewalInfo: Sendable, Hashable {
    /// The renewal info.
    var renewalInfo: RenewalInfo
    /// Its signed form (StoreKit's `RenewalInfo.jwsRepresentation`).
    var jwsRepresentation: String?
}

/// JSON form: `{"renewalInfo": {…}, "jwsRepresentation": "…"}`. Files of format 2 and older hold the bare renewal
/// info; it reads back with no signed form.
extension StoredRenewalInfo: Codable {
    private enum CodingKeys: String, CodingKey {
        case renewalInfo, jwsRepresentation
    }

    /// Reads either form.
    init(from decoder: Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        if keys.contains(.renewalInfo) {
            renewalInfo = try keys.decode(RenewalInfo.self, forKey: .renewalInfo)
            jwsRepresentation = try keys.decodeIfPresent(String.self, forKey: .jwsRepresentation)
        } else {
            renewalInfo = try RenewalInfo(from: decoder)
            jwsRepresentation = nil
        }
    }

    /// Writes the signed form.
    func encode(to encoder: Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(renewalInfo, forKey: .renewalInfo)
        try keys.encodeIfPresent(jwsRepresentation, forKey: .jwsRepresentation)
    }
}
