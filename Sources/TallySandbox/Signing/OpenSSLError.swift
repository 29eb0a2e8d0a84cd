import COpenSSL

/// Reads OpenSSL's thread-local error queue into a `SigningError`.
enum OpenSSLError {
    /// The failure of `call`, with every queued OpenSSL reason; empties the queue.
    static func failure(_ call: String, _ context: String = "") -> SigningError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let detail = reasons.isEmpty ? "no OpenSSL reason given" : reasons.joined(separator: "; ")
        let prefix = context.isEmpty ? "" : "\(context): "
        return SigningError(.openSSL, "\(prefix)OpenSSL \(call) failed (\(detail))")
    }

    /// Throws the failure of `call` unless `result` is 1 (OpenSSL's success value).
    static func check(_ result: Int32, _ call: String, _ context: String = "") throws(SigningError) {
        guard result == 1 else { throw failure(call, context) }
    }

    /// Returns `value`, or throws the failure of `call` when OpenSSL returned NULL.
    @discardableResult
    static func require<T>(_ value: T?, _ call: String, _ context: String = "") throws(SigningError) -> T {
        guard let value else { throw failure(call, context) }
        return value
    }

    /// Empties the error queue, so stale reasons never end up in a later message.
    static func clear() { ERR_clear_error() }
}
