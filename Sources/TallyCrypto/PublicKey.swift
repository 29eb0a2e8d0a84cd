import COpenSSL

/// A public key held by OpenSSL (`EVP_PKEY`).
///
/// `@unchecked Sendable`: the key is never mutated after creation; OpenSSL 3 allows one `EVP_PKEY`
/// to be used by many verification contexts on many threads at once.
public final class PublicKey: @unchecked Sendable {
    /// The owned `EVP_PKEY *`.
    package let pkey: OpaquePointer
    /// Reusable verification contexts for this key.
    let verifyContexts = VerifyContextPool()

    /// Wraps an `EVP_PKEY` this object now owns.
    package init(owning pkey: OpaquePointer) { self.pkey = pkey }

    deinit { EVP_PKEY_free(pkey) }

    /// Parses a SubjectPublicKeyInfo in DER or PEM (`BEGIN PUBLIC KEY`).
    public convenience init?(spki data: some Collection<UInt8>) {
        let bytes = Array(data)
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            if let key = d2i_PUBKEY(nil, &cursor, buffer.count) { return key }
            guard let bio = MemoryBIO.reading(UnsafeRawBufferPointer(buffer)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        _ = CryptoError.drain()
        guard let parsed else { return nil }
        self.init(owning: parsed)
    }

    /// The key's SubjectPublicKeyInfo DER.
    public var spki: [UInt8] {
        var cursor: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(pkey, &cursor)
        guard length > 0, let cursor else { return [] }
        defer { CRYPTO_free(cursor, #file, #line) }
        return Array(UnsafeBufferPointer(start: cursor, count: Int(length)))
    }

    /// True for an elliptic-curve key on P-256 (prime256v1), the only curve ES256 allows.
    public var isP256: Bool { Self.isP256(pkey) }

    /// True when `pkey` (public or private) is an elliptic-curve key on P-256.
    static func isP256(_ pkey: OpaquePointer) -> Bool {
        guard EVP_PKEY_get_base_id(pkey) == EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 64)
        guard EVP_PKEY_get_group_name(pkey, &name, name.count, nil) == 1 else { return false }
        let group = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256"
    }
}
