import COpenSSL

/// An OpenSSL call that failed, with the reasons OpenSSL queued for it.
public struct CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The OpenSSL function that failed (e.g. "PEM_read_bio_X509").
    public var call: String
    /// What was being worked on, when the caller said (e.g. "notBefore"); empty otherwise.
    public var context: String
    /// OpenSSL's own error text, "; "-separated; "no OpenSSL reason given" when the queue was empty.
    public var reason: String

    /// Creates an error for `call` with OpenSSL's `reason` text.
    public init(call: String, context: String = "", reason: String) {
        self.call = call
        self.context = context
        self.reason = reason
    }

    /// "context: OpenSSL call failed (reason)".
    public var description: String {
        let prefix = context.isEmpty ? "" : "\(context): "
        return "\(prefix)OpenSSL \(call) failed (\(reason))"
    }

    /// The failure of `call`, with every queued OpenSSL reason; empties the queue.
    package static func failure(_ call: String, _ context: String = "") -> CryptoError {
        let queued = drain()
        return CryptoError(call: call, context: context, reason: queued.isEmpty ? "no OpenSSL reason given" : queued)
    }

    /// Throws the failure of `call` unless `result` is 1 (OpenSSL's success value).
    package static func check(_ result: Int32, _ call: String, _ context: String = "") throws(CryptoError) {
        guard result == 1 else { throw failure(call, context) }
    }

    /// Returns `value`, or throws the failure of `call` when OpenSSL returned NULL.
    @discardableResult
    package static func require<T>(_ value: T?, _ call: String, _ context: String = "") throws(CryptoError) -> T {
        guard let value else { throw failure(call, context) }
        return value
    }

    /// The queued errors as one readable line (empty when there are none), clearing the queue.
    package static func drain() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.joined(separator: "; ")
    }

    /// Empties the error queue, so stale reasons never end up in a later message.
    package static func clear() { ERR_clear_error() }
}
