import COpenSSL

/// A private key held by OpenSSL (`EVP_PKEY`), for signing.
///
/// `@unchecked Sendable`: never mutated after creation; each signature uses its own OpenSSL context.
public final class PrivateKey: @unchecked Sendable {
    let pkey: OpaquePointer

    init(owning pkey: OpaquePointer) { self.pkey = pkey }

    deinit { EVP_PKEY_free(pkey) }

    /// Parses a PEM private key (PKCS#8 `BEGIN PRIVATE KEY` or SEC1 `BEGIN EC PRIVATE KEY`) or PKCS#8 DER.
    public convenience init?(pemOrDER data: some Collection<UInt8>) {
        let bytes = Array(data)
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let bio = OpenSSLBIO.reading(UnsafeRawBufferPointer(buffer)) else { return nil }
            defer { BIO_free(bio) }
            if let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) { return key }
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        _ = OpenSSLError.drain()
        guard let parsed else { return nil }
        self.init(owning: parsed)
    }

    /// Generates a new P-256 key.
    public static func generateP256() -> PrivateKey? {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
              EVP_PKEY_keygen(context, &key) == 1, let key
        else {
            _ = OpenSSLError.drain()
            return nil
        }
        return PrivateKey(owning: key)
    }

    /// The matching public key.
    public var publicKey: PublicKey? {
        var cursor: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(pkey, &cursor)
        guard length > 0, let cursor else { return nil }
        defer { CRYPTO_free(cursor, #file, #line) }
        return PublicKey(spki: UnsafeBufferPointer(start: cursor, count: Int(length)))
    }

    /// A DER ECDSA signature over a SHA-256 digest.
    public func signDigest(_ digest: [UInt8]) -> [UInt8]? {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        guard EVP_PKEY_sign_init(context) == 1,
              EVP_PKEY_sign(context, nil, &length, digest, digest.count) == 1
        else {
            _ = OpenSSLError.drain()
            return nil
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_sign(context, &signature, &length, digest, digest.count) == 1 else {
            _ = OpenSSLError.drain()
            return nil
        }
        return Array(signature.prefix(length))
    }
}
