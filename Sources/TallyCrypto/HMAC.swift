import COpenSSL

/// HMAC-SHA256 (RFC 2104) through OpenSSL, and a comparison that takes the same time whatever the bytes.
public enum HMACSHA256 {
    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    public static func authenticationCode(for message: some Collection<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        let message = Array(message), key = Array(key)
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress,
                     messageBytes.count, &out, &length)
            }
        }
        _ = CryptoError.drain()
        // HMAC fails only when OpenSSL cannot allocate; an empty result then matches no code.
        return done == nil ? [] : Array(out.prefix(Int(length)))
    }

    /// Whether `left` and `right` are equal, in time that depends on their lengths only (`CRYPTO_memcmp`).
    public static func isEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count, !left.isEmpty else { return false }
        return left.withUnsafeBytes { a in right.withUnsafeBytes { b in
            CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0
        } }
    }
}
