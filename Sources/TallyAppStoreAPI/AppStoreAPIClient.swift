import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallyLocking
import TallyCrypto

/// A client of the App Store Server API for an entitlement server: each request signed with a fresh ES256 JWT
/// (``TallyCrypto/ServerAPIToken``), Apple's retry rules applied (``AppStoreAPIRetryPolicy``). Synchronous: each
/// call blocks its thread until the answer, or until the retries ran out.
public struct AppStoreAPIClient: Sendable {
    /// Where and as whom to call.
    public struct Configuration: Sendable {
        /// `https://api.storekit.apple.com`, `https://api.storekit-sandbox.apple.com`, or a `tally sandbox serve`.
        public var baseURL: URL
        /// The in-app purchase key's id.
        public var keyId: String
        /// The issuer id.
        public var issuerId: String
        /// The app's bundle id.
        public var bundleId: String
        /// The in-app purchase key (P-256).
        public var key: PrivateKey
        /// Seconds to wait for one answer.
        public var timeout: TimeInterval

        /// Creates a configuration.
        public init(baseURL: URL, keyId: String, issuerId: String, bundleId: String, key: PrivateKey,
                    timeout: TimeInterval = 30) {
            self.baseURL = baseURL
            self.keyId = keyId
            self.issuerId = issuerId
            self.bundleId = bundleId
            self.key = key
            self.timeout = timeout
        }
    }

    /// One HTTP answer.
    struct Answer: Sendable {
        var status: Int
        var retryAfter: String?
        var body: Data
    }

    /// Where and as whom to call.
    public let configuration: Configuration
    /// How to retry.
    public let retry: AppStoreAPIRetryPolicy
    /// Sleeps between attempts (tests record the waits instead).
    let sleep: @Sendable (TimeInterval) -> Void
    /// The clock tokens and `Retry-After` are read against.
    let now: @Sendable () -> Date

    /// Creates a client.
    public init(configuration: Configuration, retry: AppStoreAPIRetryPolicy = AppStoreAPIRetryPolicy(),
                sleep: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.retry = retry
        self.sleep = sleep
        self.now = now
    }

    /// GETs `path` with `query` (repeated names allowed), retrying by the policy; the JSON body of a 200.
    func get(_ path: String, query: [(String, String)] = []) throws(AppStoreAPIClientError) -> Data {
        try call("GET", path, query: query, body: nil)
    }

    /// POSTs the JSON `body` to `path` with `query`, retrying by the policy; the JSON body of a 200.
    func post(_ path: String, query: [(String, String)] = [], body: Data) throws(AppStoreAPIClientError) -> Data {
        try call("POST", path, query: query, body: body)
    }

    /// PUTs the JSON `body` to `path`, retrying by the policy; the body of the `expected` success status.
    func put(_ path: String, body: Data, expected: Int) throws(AppStoreAPIClientError) -> Data {
        try call("PUT", path, query: [], body: body, success: expected)
    }

    private func call(_ method: String, _ path: String, query: [(String, String)], body: Data?, success: Int = 200)
        throws(AppStoreAPIClientError) -> Data
    {
        guard let url = Self.url(base: configuration.baseURL, path: path, query: query) else {
            throw AppStoreAPIClientError(.invalidRequest, "cannot build a URL for \(path)")
        }
        var attempt = 1
        while true {
            let answer: Answer
            do {
                answer = try send(url, method: method, body: body)
            } catch {
                guard attempt < retry.maximumAttempts else { throw error }
                sleep(retry.backOff(after: attempt, random: Double.random(in: 0...1)))
                attempt += 1
                continue
            }
            if answer.status == success { return answer.body }
            let code = Self.errorCode(answer.body)
            switch answer.status {
            case 401:
                throw AppStoreAPIClientError(.unauthorized, status: 401, "the App Store Server API refused the token: "
                    + "check the key id, issuer id, private key, bundle id and the clock")
            case 429:
                guard attempt < retry.maximumAttempts else {
                    throw AppStoreAPIClientError(.rateLimited, status: 429, errorCode: code,
                                                 "still rate-limited after \(attempt) attempts")
                }
                sleep(retry.rateLimitWait(retryAfter: answer.retryAfter, now: now(), attempt: attempt,
                                          random: Double.random(in: 0...1)))
            default:
                let retryable = code.map(AppStoreAPIRetryPolicy.retryableErrorCodes.contains)
                    ?? (500...599).contains(answer.status)
                guard retryable, attempt < retry.maximumAttempts else {
                    throw AppStoreAPIClientError(.apiError, status: answer.status, errorCode: code,
                                                 Self.errorMessage(answer.body) ?? "HTTP \(answer.status)")
                }
                sleep(retry.backOff(after: attempt, random: Double.random(in: 0...1)))
            }
            attempt += 1
        }
    }

    /// `base` with `path` appended as it is written — already percent-encoded, each id by
    /// ``pathSegment(_:)`` — and `query`. (`appendingPathComponent` would encode the `%` of an encoded id again,
    /// so the server would read `%2F` where the id had `/`.)
    static func url(base: URL, path: String, query: [(String, String)]) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        let basePath = components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = basePath + path
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        return components.url
    }

    /// One request, signed with a fresh token; blocks until the answer or the timeout.
    private func send(_ url: URL, method: String, body: Data?) throws(AppStoreAPIClientError) -> Answer {
        let token: String
        do {
            token = try ServerAPIToken.fresh(keyId: configuration.keyId, issuerId: configuration.issuerId,
                                             bundleId: configuration.bundleId, now: now()).signed(with: configuration.key)
        } catch {
            throw AppStoreAPIClientError(.invalidRequest, "the in-app purchase key cannot sign: \(error)")
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: configuration.timeout)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let box = AnswerBox()
        let done = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                box.set(.failure(AppStoreAPIClientError(.transport, "\(url.host ?? "the API") unreachable: \(error.localizedDescription)")))
            } else if let http = response as? HTTPURLResponse {
                box.set(.success(Answer(status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"),
                                        body: data ?? Data())))
            } else {
                box.set(.failure(AppStoreAPIClientError(.transport, "no HTTP answer from \(url.host ?? "the API")")))
            }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + configuration.timeout + 1) == .timedOut {
            task.cancel()
            throw AppStoreAPIClientError(.transport, "no answer within \(Int(configuration.timeout)) s")
        }
        guard let result = box.get() else { throw AppStoreAPIClientError(.transport, "the request gave no result") }
        return try result.get()
    }

    private static func errorCode(_ body: Data) -> Int? {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["errorCode"] as? Int
    }

    private static func errorMessage(_ body: Data) -> String? {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["errorMessage"] as? String
    }

    /// Hands the completion handler's result to the waiting thread.
    private final class AnswerBox: Sendable {
        private let value = Locked<Result<Answer, AppStoreAPIClientError>?>(nil)
        func set(_ result: Result<Answer, AppStoreAPIClientError>) { value.withLock { $0 = result } }
        func get() -> Result<Answer, AppStoreAPIClientError>? { value.withLock { $0 } }
    }
}
