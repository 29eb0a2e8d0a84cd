import COpenSSL

/// Helpers for OpenSSL memory BIOs.
enum OpenSSLBIO {
    /// Everything written to a memory BIO, as UTF-8 text.
    static func string(_ bio: OpaquePointer) -> String {
        String(decoding: bytes(bio), as: UTF8.self)
    }

    /// Everything written to a memory BIO.
    static func bytes(_ bio: OpaquePointer) -> [UInt8] {
        var pointer: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
        guard length > 0, let pointer else { return [] }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// A read-only memory BIO over `bytes`; the caller must keep `bytes` alive and free the BIO.
    static func reading(_ bytes: UnsafeRawBufferPointer) -> OpaquePointer? {
        BIO_new_mem_buf(bytes.baseAddress, Int32(clamping: bytes.count))
    }
}
