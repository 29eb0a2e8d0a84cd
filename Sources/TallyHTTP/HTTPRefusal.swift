/// Why the server answers a request itself, from its head alone, without reading its body or calling the
/// handler. The configuration's ``HTTPServer/Configuration/refusal`` turns it into the response.
public enum HTTPRefusal: Sendable, Hashable {
    /// The body is (or is announced as) larger than `limit`, the limit for this request: answer 413.
    case bodyTooLarge(limit: Int)
    /// The head frames the message ambiguously or is malformed (RFC 9112 §3.2, §6.1, §6.3): both
    /// `Content-Length` and `Transfer-Encoding`, a repeated `Content-Length`, a missing or repeated `Host`, a
    /// malformed `Transfer-Encoding`. Answer 400; the connection is closed afterwards. The text says what.
    case malformedRequest(String)
    /// A `Transfer-Encoding` other than `chunked` (RFC 9112 §6.1): answer 501; the connection is closed.
    /// The text says what was sent.
    case unsupportedTransferCoding(String)

    /// The status the default answer uses: 413, 400 or 501.
    public var status: Int {
        switch self {
        case .bodyTooLarge: 413
        case .malformedRequest: 400
        case .unsupportedTransferCoding: 501
        }
    }

    /// One sentence for the client.
    public var message: String {
        switch self {
        case .bodyTooLarge(let limit): "the body is larger than \(limit) bytes"
        case .malformedRequest(let text), .unsupportedTransferCoding(let text): text
        }
    }
}
