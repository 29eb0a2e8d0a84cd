import Foundation
import TallyCrypto

/// The demo's stand-in for an app's backend issuing customer tokens: signs a 10-minute token (audience `tally`) for
/// whichever customer the market speaks for, with the server's HS256 secret read from a file.
struct MarketCustomerTokens: Sendable {
    let key: CustomerTokenKey

    /// Reads the base64 secret `tally serve customer-token --new-secret` wrote.
    init(secretFile: URL) throws {
        guard let data = FileManager.default.contents(atPath: secretFile.path),
              let key = CustomerTokenKey.hs256(secretFile: data) else {
            throw UsageError("--customer-token-secret \(secretFile.path) is not a secret file of 'tally serve "
                + "customer-token --new-secret' (base64 of at least 32 bytes)")
        }
        self.key = key
    }

    /// The provider a ``ServerLink`` calls before each request.
    var provider: @Sendable (String) async throws -> String? {
        let key = self.key
        return { appUserId in
            let now = Date()
            return try CustomerToken(appUserId: appUserId, audience: "tally", issuedAt: now,
                                     expiresAt: now.addingTimeInterval(600)).signed(with: key)
        }
    }
}
