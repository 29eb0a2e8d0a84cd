/// The result of one attempt to deliver a notification, by Apple's names (`sendAttemptResult`,
/// ../shared/docs/server-notifications-v2.md §5).
public enum SendAttemptResult: String, Sendable, Codable, Hashable, CaseIterable {
    /// The server answered 200–206.
    case success = "SUCCESS"
    /// No answer within the timeout.
    case timedOut = "TIMED_OUT"
    /// A TLS handshake or certificate problem.
    case tlsIssue = "TLS_ISSUE"
    /// A redirect loop.
    case circularRedirect = "CIRCULAR_REDIRECT"
    /// No answer: the connection was refused or nothing was listening.
    case noResponse = "NO_RESPONSE"
    /// A socket-level failure.
    case socketIssue = "SOCKET_ISSUE"
    /// The answer's charset is not supported.
    case unsupportedCharset = "UNSUPPORTED_CHARSET"
    /// The answer was not valid HTTP.
    case invalidResponse = "INVALID_RESPONSE"
    /// The connection closed before the answer was complete.
    case prematureClose = "PREMATURE_CLOSE"
    /// An HTTP status outside 200–206.
    case unsuccessfulHTTPResponseCode = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    /// Anything else.
    case other = "OTHER"
}
