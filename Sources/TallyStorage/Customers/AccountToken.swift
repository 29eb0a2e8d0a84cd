import Foundation

/// The `appAccountToken`s the server mints (docs/security.md, *Account tokens*): one random UUIDv4 per customer,
/// handed only to a caller that speaks for that customer. Only a minted token carries authority over purchases
/// and notifications; any other token a transaction carries (one an app chose, or the old derived one) carries none.
public enum AccountToken {
    /// A new token: a UUIDv4 with 122 bits from the system's cryptographic generator, lowercase.
    public static func mint() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString.lowercased()
    }

    /// The form tokens are stored and compared in: a UUID's lowercase text; nil for anything that is not a UUID
    /// (which then can never be a minted token).
    public static func canonical(_ token: String) -> String? {
        guard token.utf8.count == 36, let uuid = UUID(uuidString: token) else { return nil }
        return uuid.uuidString.lowercased()
    }
}
