import Foundation
import TallyCore
import TallyCrypto

/// `signing` of `tally-server.json`: the P-256 key the server signs customer answers with (`Tally-Signature`,
/// docs/server.md). Its public key is pinned in the app's `ServerLink.serverPublicKey`.
public struct SigningSettings: Sendable {
    /// The private key (`signing.privateKeyFile`: PKCS#8 or SEC1 PEM, or PKCS#8 DER; `tally serve signing-key`).
    public var privateKey: PrivateKey

    /// Creates settings for a P-256 key.
    public init(privateKey: PrivateKey) {
        self.privateKey = privateKey
    }
}

extension ServerConfiguration {
    /// Reads `signing`: `{"privateKeyFile": "…"}` naming a P-256 private key (relative to the configuration).
    static func loadSigning(_ node: JSONCursor?, reader: inout ConfigurationReader) -> SigningSettings? {
        guard let node, let members = reader.object(node, allowed: ["privateKeyFile"]) else { return nil }
        guard let fileNode = members["privateKeyFile"] else {
            reader.problem("signing.privateKeyFile", "is required: the P-256 key made by `tally serve signing-key`")
            return nil
        }
        guard let file = reader.file(fileNode) else { return nil }
        let key: PrivateKey
        do { key = try PrivateKey.parse(pemOrDER: Array(file.data)) } catch {
            reader.problem("signing.privateKeyFile", "\(file.url.path) is not a private key: \(error)")
            return nil
        }
        guard key.isP256 else {
            reader.problem("signing.privateKeyFile", "\(file.url.path) is not a P-256 key (ES256 needs P-256)")
            return nil
        }
        return SigningSettings(privateKey: key)
    }
}
