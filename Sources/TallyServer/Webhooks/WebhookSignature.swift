import Foundation
import TallyCrypto

/// The Standard Webhooks signature of one attempt (docs/webhooks.md): `v1,` and the base64 HMAC-SHA256 under
/// the endpoint's secret of `ID.TIMESTAMP.BODY` (the id, a dot, the unix seconds, a dot, the exact body bytes).
public enum WebhookSignature {
    /// The `Tally-Webhook-Signature` header's value.
    public static func header(secret: [UInt8], id: String, timestamp: Int64, body: [UInt8]) -> String {
        var message = Array("\(id).\(timestamp).".utf8)
        message.append(contentsOf: body)
        let code = HMACSHA256.authenticationCode(for: message, key: secret)
        return "v1," + Data(code).base64EncodedString()
    }
}
