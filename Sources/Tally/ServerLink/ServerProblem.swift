import Foundation

/// Why the app's server gave no usable answer to the engine's last request (``Store/serverProblem``): what a
/// person can act on differs — a network to check, a wait of ``rateLimited(retryAfter:message:)``'s seconds, or
/// the server's operator to call.
public enum ServerProblem: Sendable, Hashable, CustomStringConvertible {
    /// No HTTP answer: the server is down or not reachable (DNS, refused connection, timeout, TLS), or the
    /// request could not be formed. The text says what failed.
    case unreachable(String)
    /// 429 `rate_limited`: the server is up and refuses more requests for now. `retryAfter` is its `Retry-After`
    /// in seconds (nil when the answer carried none this engine reads); `message` the server's reason.
    case rateLimited(retryAfter: Int?, message: String)
    /// Any other answer that was not taken: a 5xx, an answer that does not decode, an unexpected status.
    case serverError(status: Int, code: String, message: String)

    /// One line for people: "rate-limited by the server; retry after 30 s (…)", "cannot be reached (…)", ….
    public var description: String {
        switch self {
        case .unreachable(let reason):
            return "the server cannot be reached (\(reason))"
        case .rateLimited(let seconds, let message):
            return "rate-limited by the server (429" + (message.isEmpty ? "" : ": \(message)") + ")"
                + (seconds.map { "; retry after \($0) s" } ?? "; it named no retry time")
        case .serverError(let status, let code, let message):
            return "the server answered \(status) \(code): \(message)"
        }
    }

    /// What an answer other than a taken 2xx (and other than a final 409/422) is: 429 ``rateLimited`` with
    /// `Retry-After` read as delta-seconds (HTTP's other form, a date, and anything malformed read as none),
    /// every other status ``serverError``.
    static func answer(status: Int, retryAfter: String?, code: String, message: String) -> ServerProblem {
        guard status == 429 else { return .serverError(status: status, code: code, message: message) }
        return .rateLimited(retryAfter: retryAfter.flatMap(Self.deltaSeconds), message: message)
    }

    /// `Retry-After`'s delta-seconds: 1 to 9 ASCII digits (so it fits an Int everywhere), surrounding blanks
    /// allowed; nil for anything else.
    static func deltaSeconds(_ text: String) -> Int? {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard text.utf8.count <= 64 else { return nil }
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) })
        else { return nil }
        let digits = bytes[first...last]
        guard digits.count <= 9, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
