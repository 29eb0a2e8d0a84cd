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
        digest.withUnsafeBytes { digest in
            derSignature.withUnsafeBytes { signature in verify(digest: digest, derSignature: signature, key: key) }
        }
    }

    /// Verifies a DER ECDSA signature over a precomputed digest with `key`, reusing one of the key's
    /// verification contexts.
    static func verify(digest: UnsafeRawBufferPointer, derSignature: UnsafeRawBufferPointer, key: PublicKey) -> Bool {
        let result = key.verifyContexts.withContext(for: key.pkey) { context in
            EVP_PKEY_verify(
                context, derSignature.baseAddress?.assumingMemoryBound(to: UInt8.self), derSignature.count,
                digest.baseAddress?.assumingMemoryBound(to: UInt8.self), digest.count)
        }
        if result != 1 { _ = CryptoError.drain() }
        return result == 1
    }

    /// Verifies a JOSE `ES256` signature (raw r‖s) over `message` with a P-256 `key`.
    public static func verifyES256(message: UnsafeRawBufferPointer, rawSignature: [UInt8], key: PublicKey) -> Bool {
        guard rawSignature.count == 64 else { return false }
        // Digest and DER signature live on the stack: no allocation per verification.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32 + 72) { scratch -> Bool in
            guard let base = scratch.baseAddress else { return false }
            guard SHA256(message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count, base) != nil else {
                return false
            }
            let der = UnsafeMutableBufferPointer(rebasing: scratch[32...])
            let length = rawSignature.withUnsafeBufferPointer { raw in writeDERSignature(raw, into: der) }
            return verify(
                digest: UnsafeRawBufferPointer(start: base, count: 32),
                derSignature: UnsafeRawBufferPointer(start: der.baseAddress, count: length), key: key)
        }
    }

    /// Writes the DER `ECDSA-Sig-Value` of a 64-byte r‖s into `out` (at least 72 bytes); returns its length.
    private static func writeDERSignature(_ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        var cursor = 2
        for half in [raw[0..<32], raw[32..<64]] {
            var start = half.startIndex
            while start < half.endIndex - 1, half[start] == 0 { start += 1 }
            let pad = half[start] & 0x80 != 0
            let count = half.endIndex - start + (pad ? 1 : 0)
            out[cursor] = 0x02
            out[cursor + 1] = UInt8(count)
            cursor += 2
            if pad {
                out[cursor] = 0
                cursor += 1
            }
            for index in start..<half.endIndex {
                out[cursor] = half[index]
                cursor += 1
            }
        }
        out[0] = 0x30
        out[1] = UInt8(cursor - 2)
        return cursor
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
