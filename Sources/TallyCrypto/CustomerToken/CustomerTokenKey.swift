import Foundation

/// A key that signs or checks customer tokens (``CustomerToken``): an HMAC secret shared by the app's backend
/// and the server (HS256), or a P-256 key pair whose private half stays with the app's backend (ES256).
///
/// The key, never the token's header, decides the algorithm: a token whose `alg` is not its key's is refused,
/// so no token can pick `none` or turn a public key into an HMAC secret.
public struct CustomerTokenKey: Sendable {
    /// The algorithms a customer token may use.
    public enum Algorithm: String, Sendable, Hashable {
        /// HMAC-SHA256 with a shared secret.
        case hs256 = "HS256"
        /// ECDSA P-256 with SHA-256.
        case es256 = "ES256"
    }

    enum Material: Sendable {
        case secret([UInt8])
        case publicKey(PublicKey, PrivateKey?)
    }

    /// The `kid` a token names to pick this key; nil: the key is tried for tokens without a `kid`.
    public let id: String?
    let material: Material

    /// The algorithm this key signs and checks with.
    public var algorithm: Algorithm {
        if case .secret = material { .hs256 } else { .es256 }
    }

    /// Whether this key can sign (an HMAC secret, or a P-256 key pair with its private key).
    public var canSign: Bool {
        switch material {
        case .secret: true
        case .publicKey(_, let privateKey): privateKey != nil
        }
    }

    /// An HS256 key; the secret should be at least 32 random bytes.
    public static func hs256(id: String? = nil, secret: [UInt8]) -> CustomerTokenKey {
        CustomerTokenKey(id: id, material: .secret(secret))
    }

    /// The shortest HS256 secret accepted, in bytes.
    public static let minimumSecretBytes = 32

    /// An HS256 key from a secret file's contents (`tally serve customer-token --new-secret` writes one): base64 of
    /// at least ``minimumSecretBytes`` bytes, surrounding white space ignored; nil for anything else.
    public static func hs256(id: String? = nil, secretFile contents: Data) -> CustomerTokenKey? {
        let text = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let secret = Data(base64Encoded: text), secret.count >= minimumSecretBytes else { return nil }
        return .hs256(id: id, secret: [UInt8](secret))
    }

    /// A new secret file's contents: ``minimumSecretBytes`` random bytes as base64, with a newline.
    public static func newSecretFile() -> Data {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<minimumSecretBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data((Data(secret).base64EncodedString() + "\n").utf8)
    }

    /// An ES256 key that checks with `publicKey` and, given `privateKey` (its pair), also signs.
    public static func es256(id: String? = nil, publicKey: PublicKey, privateKey: PrivateKey? = nil) -> CustomerTokenKey {
        CustomerTokenKey(id: id, material: .publicKey(publicKey, privateKey))
    }
}
