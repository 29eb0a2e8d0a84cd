import COpenSSL
import Foundation

/// Moves bytes in and out of OpenSSL through in-memory BIOs.
enum MemoryBIO {
    /// Runs `write` against an empty memory BIO and returns everything it wrote.
    static func collect(_ call: String, _ write: (OpaquePointer) -> Int32) throws(SigningError) -> Data {
        let bio = try OpenSSLError.require(BIO_new(BIO_s_mem()), "BIO_new")
        defer { BIO_free(bio) }
        try OpenSSLError.check(write(bio), call)
        let pending = Int(BIO_ctrl_pending(bio))
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32(pending)) }
        guard read == pending else { throw OpenSSLError.failure("BIO_read", "after \(call)") }
        return Data(bytes)
    }

    /// Hands `read` a read-only memory BIO over `data`; returns what `read` returns.
    static func parse<T>(_ data: Data, _ read: (OpaquePointer) -> T?) -> T? {
        data.withUnsafeBytes { raw -> T? in
            guard let base = raw.baseAddress, raw.count <= Int(Int32.max),
                  let bio = BIO_new_mem_buf(base, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return read(bio)
        }
    }
}
