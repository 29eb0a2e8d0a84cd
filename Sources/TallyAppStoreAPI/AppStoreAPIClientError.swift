/// Why a call to the App Store Server API did not give an answer, after the retries the rules allow.
public struct AppStoreAPIClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Reason: String, Sendable, Hashable {
        /// 401: the token was refused — a configuration problem (key id, issuer id, key, bundle id, clock); never retried.
        case unauthorized
        /// Apple answered an error (`errorCode` when it sent one) that is not retryable, or still failed after retries.
        case apiError
        /// Still rate-limited (429) when the retries ran out.
        case rateLimited
        /// No answer: the connection failed or timed out, after retries.
        case transport
        /// An answer that is not the JSON the endpoint documents.
        case malformedResponse
        /// The request could not be made (a bad base URL, a key that cannot sign).
        case invalidRequest
    }

    /// The kind of failure.
    public var reason: Reason
    /// The HTTP status, when an answer came.
    public var status: Int?
    /// Apple's `errorCode`, when the answer carried one.
    public var errorCode: Int?
    /// What happened, for a person.
    public var message: String

    /// Creates an error.
    public init(_ reason: Reason, status: Int? = nil, errorCode: Int? = nil, _ message: String) {
        self.reason = reason
        self.status = status
        self.errorCode = errorCode
        self.message = message
    }

    /// "reason (HTTP n, errorCode c): message".
    public var description: String {
        var head = reason.rawValue
        if let status { head += " (HTTP \(status)" + (errorCode.map { ", errorCode \($0)" } ?? "") + ")" }
        return head + ": " + message
    }
}
