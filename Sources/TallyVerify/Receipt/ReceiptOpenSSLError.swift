import COpenSSL

/// Reads OpenSSL's per-thread error queue for failure details.
enum ReceiptOpenSSLError {
    /// The most recent queued error as text (and clears the queue), nil when the queue is empty.
    static func latest() -> String? {
        var last: UInt = 0
        while case let code = ERR_get_error(), code != 0 { last = code }
        guard last != 0 else { return nil }
        return text(last)
    }

    /// The text OpenSSL gives an error code.
    static func text(_ code: UInt) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
