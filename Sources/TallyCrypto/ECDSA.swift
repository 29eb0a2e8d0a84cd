import COpenSSL

/// ECDSA signatures over P-256 with SHA-256, as JOSE (`ES256`) and X.509 use them.
public enum ECDSA {
    /// SHA-256 of `message`.
    public static func sha256(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = SHA256(message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count, &digest)
        return digest
    }

    /// SHA-256 of `message`.
    public static func sha256(_ message: some Collection<UInt8>) -> [UInt8] {
        Array(message).withUnsafeBytes { sha256($0) }
    }

    /// Converts a JOSE raw signature (r‖s, 64 bytes for P-256) to the DER `ECDSA-Sig-Value` OpenSSL
    /// verifies; nil if it is not 64 bytes.
    public static func derSignature(fromRaw raw: some Collection<UInt8>) -> [UInt8]? {
        let bytes = Array(raw)
        guard bytes.count == 64 else { return nil }
        let r = derInteger(bytes[0..<32])
        let s = derInteger(bytes[32..<64])
        return [0x30, UInt8(r.count + s.count)] + r + s
    }

    /// Converts a DER `ECDSA-Sig-Value` to the JOSE raw form r‖s with `width`-byte halves.
    public static func rawSignature(fromDER der: some Collection<UInt8>, width: Int = 32) -> [UInt8]? {
        let bytes = Array(der)
        return bytes.withUnsafeBufferPointer { buffer -> [UInt8]? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
            defer { ECDSA_SIG_free(signature) }
            var raw = [UInt8](repeating: 0, count: 2 * width)
            guard let r = ECDSA_SIG_get0_r(signature), let s = ECDSA_SIG_get0_s(signature) else { return nil }
            let ok = raw.withUnsafeMutableBufferPointer { out -> Bool in
                guard let base = out.baseAddress else { return false }
                return BN_bn2binpad(r, base, Int32(width)) == width
                    && BN_bn2binpad(s, base + width, Int32(width)) == width
            }
            return ok ? raw : nil
        }
    }

    /// Verifies a DER ECDSA signature over a precomputed digest with `key`.
    public static func verify(digest: [UInt8], derSignature: [UInt8], key: PublicKey) -> Bool {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pkey, nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_verify_init(context) == 1 else {
            _ = CryptoError.drain()
            return false
        }
        let result = EVP_PKEY_verify(context, derSignature, derSignature.count, digest, digest.count)
        if result != 1 { _ = CryptoError.drain() }
        return result == 1
    }

    /// Verifies a JOSE `ES256` signature (raw r‖s) over `message` with a P-256 `key`.
    public static func verifyES256(message: UnsafeRawBufferPointer, rawSignature: [UInt8], key: PublicKey) -> Bool {
        guard let der = derSignature(fromRaw: rawSignature) else { return false }
        return verify(digest: sha256(message), derSignature: der, key: key)
    }

    /// DER INTEGER of an unsigned big-endian value: leading zeros stripped, a zero byte added when
    /// the top bit is set.
    private static func derInteger(_ value: ArraySlice<UInt8>) -> [UInt8] {
        var body = Array(value.drop { $0 == 0 })
        if body.isEmpty { body = [0] }
        if body[0] & 0x80 != 0 { body.insert(0, at: 0) }
        return [0x02, UInt8(body.count)] + body
    }
}
