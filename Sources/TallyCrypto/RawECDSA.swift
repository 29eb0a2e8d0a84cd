/// One P-256 ECDSA verification straight through OpenSSL, with nothing else: the baseline the
/// benchmark compares full JWS verification with.
public struct RawECDSA: Sendable {
    /// The verifying key.
    public let key: PublicKey
    /// The SHA-256 digest that was signed.
    public let digest: [UInt8]
    /// The DER ECDSA signature.
    public let signature: [UInt8]

    /// A ready-to-run verification of a fresh signature over `message` with a new P-256 key;
    /// nil if OpenSSL cannot make one.
    public static func sample(message: [UInt8] = Array("tally raw ECDSA baseline".utf8)) -> RawECDSA? {
        guard let privateKey = PrivateKey.generateP256(), let key = privateKey.publicKey else { return nil }
        let digest = ECDSA.sha256(message)
        guard let signature = privateKey.signDigest(digest) else { return nil }
        return RawECDSA(key: key, digest: digest, signature: signature)
    }

    /// Creates a verification of `signature` (DER) over `digest` with `key`.
    public init(key: PublicKey, digest: [UInt8], signature: [UInt8]) {
        self.key = key
        self.digest = digest
        self.signature = signature
    }

    /// Runs the verification; true when the signature is valid.
    public func verify() -> Bool {
        ECDSA.verify(digest: digest, derSignature: signature, key: key)
    }
}
