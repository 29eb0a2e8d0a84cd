import COpenSSL

/// Moves bytes in and out of OpenSSL through in-memory BIOs.
package enum MemoryBIO {
    /// Everything written to a memory BIO.
    package static func bytes(_ bio: OpaquePointer) -> [UInt8] {
        var pointer: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
        guard length > 0, let pointer else { return [] }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// A read-only memory BIO over `bytes`; the caller must keep `bytes` alive and free the BIO.
    package static func reading(_ bytes: UnsafeRawBufferPointer) -> OpaquePointer? {
        BIO_new_mem_buf(bytes.baseAddress, Int32(clamping: bytes.count))
    }

    /// Hands `read` a read-only memory BIO over `bytes`; returns what `read` returns.
    package static func parse<T>(_ bytes: some Collection<UInt8>, _ read: (OpaquePointer) -> T?) -> T? {
        Array(bytes).withUnsafeBytes { raw -> T? in
            guard raw.count <= Int(Int32.max), let bio = reading(raw) else { return nil }
            defer { BIO_free(bio) }
            return read(bio)
        }
    }

    /// Runs `write` (named `call` in errors) against an empty memory BIO and returns what it wrote.
    package static func collect(_ call: String, _ write: (OpaquePointer) -> Int32) throws(CryptoError) -> [UInt8] {
        let bio = try CryptoError.require(BIO_new(BIO_s_mem()), "BIO_new")
        defer { BIO_free(bio) }
        try CryptoError.check(write(bio), call)
        return bytes(bio)
    }
}
