import COpenSSL

/// A private key held by OpenSSL (`EVP_PKEY`), for signing.
///
/// `@unchecked Sendable`: the key is created fully in `init` and never modified afterwards. OpenSSL 3
/// documents `EVP_PKEY` as safe to use from several threads at once for read-only operations
/// (openssl-threads(7)); signing only reads the key and every call uses its own context.
public final class PrivateKey: @unchecked Sendable {
    /// The owned `EVP_PKEY *`.
    package let pkey: OpaquePointer

    /// Wraps an `EVP_PKEY` this object now owns.
    package init(owning pkey: OpaquePointer) { self.pkey = pkey }

    deinit { EVP_PKEY_free(pkey) }

    /// Parses a PEM private key (PKCS#8 `BEGIN PRIVATE KEY` or SEC1 `BEGIN EC PRIVATE KEY`) or PKCS#8
    /// DER; nil when it does not parse (``parse(pemOrDER:)`` says why).
    public convenience init?(pemOrDER data: some Collection<UInt8>) {
        guard case .success(let key) = Self.read(Array(data)) else { return nil }
        self.init(owning: key)
    }

    /// Parses a PEM or PKCS#8 DER private key; the error carries OpenSSL's reason.
    public static func parse(pemOrDER data: some Collection<UInt8>) throws(CryptoError) -> PrivateKey {
        PrivateKey(owning: try read(Array(data)).get())
    }

    private static func read(_ bytes: [UInt8]) -> Result<OpaquePointer, CryptoError> {
        CryptoError.clear()
        if let key = MemoryBIO.parse(bytes, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) { return .success(key) }
        let pemFailure = CryptoError.failure("PEM_read_bio_PrivateKey")
        let der: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        CryptoError.clear()
        return der.map { .success($0) } ?? .failure(pemFailure)
    }

    /// Generates a new P-256 key; nil if OpenSSL cannot (``newP256()`` says why).
    public static func generateP256() -> PrivateKey? { try? newP256() }

    /// Generates a new P-256 key (named-curve encoding); the error carries OpenSSL's reason.
    public static func newP256() throws(CryptoError) -> PrivateKey {
        CryptoError.clear()
        let context = try CryptoError.require(EVP_PKEY_CTX_new_from_name(nil, "EC", nil), "EVP_PKEY_CTX_new_from_name")
        defer { EVP_PKEY_CTX_free(context) }
        try CryptoError.check(EVP_PKEY_keygen_init(context), "EVP_PKEY_keygen_init")
        try CryptoError.check(EVP_PKEY_CTX_set_group_name(context, "P-256"), "EVP_PKEY_CTX_set_group_name")
        var key: OpaquePointer?
        try CryptoError.check(EVP_PKEY_generate(context, &key), "EVP_PKEY_generate")
        return PrivateKey(owning: try CryptoError.require(key, "EVP_PKEY_generate"))
    }

    /// True for an elliptic-curve key on P-256.
    public var isP256: Bool { PublicKey.isP256(pkey) }

    /// The key as unencrypted PKCS#8 PEM.
    public func pem() throws(CryptoError) -> String {
        let bytes = try MemoryBIO.collect("PEM_write_bio_PrivateKey") { bio in
            PEM_write_bio_PrivateKey(bio, pkey, nil, nil, 0, nil, nil)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The matching public key.
    public var publicKey: PublicKey? {
        var cursor: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(pkey, &cursor)
        guard length > 0, let cursor else { return nil }
        defer { CRYPTO_free(cursor, #file, #line) }
        return PublicKey(spki: UnsafeBufferPointer(start: cursor, count: Int(length)))
    }

    /// A DER ECDSA signature over a SHA-256 digest; nil if OpenSSL cannot sign (``signature(digest:)`` says why).
    public func signDigest(_ digest: [UInt8]) -> [UInt8]? { try? signature(digest: digest) }

    /// A DER ECDSA signature over a SHA-256 digest; the error carries OpenSSL's reason.
    public func signature(digest: [UInt8]) throws(CryptoError) -> [UInt8] {
        CryptoError.clear()
        let context = try CryptoError.require(EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil), "EVP_PKEY_CTX_new_from_pkey")
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        try CryptoError.check(EVP_PKEY_sign_init(context), "EVP_PKEY_sign_init")
        try CryptoError.check(EVP_PKEY_sign(context, nil, &length, digest, digest.count), "EVP_PKEY_sign")
        var signature = [UInt8](repeating: 0, count: length)
        try CryptoError.check(EVP_PKEY_sign(context, &signature, &length, digest, digest.count), "EVP_PKEY_sign")
        return Array(signature.prefix(length))
    }
}
