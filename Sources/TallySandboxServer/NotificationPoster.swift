import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallySandbox

/// Posts one notification body as the App Store does: `POST` with `Content-Type: application/json` and
/// `{"signedPayload": …}`, and names what came of it by Apple's `sendAttemptResult` values.
struct NotificationPoster: Sendable {
    /// Seconds to wait for an answer before the attempt is `TIMED_OUT`.
    var timeout: TimeInterval

    /// What one attempt gave: its result and the receiver's status when it answered.
    struct Outcome: Sendable {
        var result: SendAttemptResult
        var httpStatus: Int?
    }

    /// Posts `signedPayload` to `url` and waits for the answer, at most ``timeout`` seconds (plus one).
    func post(_ signedPayload: String, to url: URL) -> Outcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        guard let body = try? JSONSerialization.data(withJSONObject: ["signedPayload": signedPayload],
                                                     options: [.withoutEscapingSlashes]) else {
            return Outcome(result: .other)
        }
        request.httpBody = body
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let box = OutcomeBox()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { _, response, error in
            if let error {
                box.set(Outcome(result: Self.result(of: error)))
            } else if let http = response as? HTTPURLResponse {
                box.set(Outcome(result: (200...206).contains(http.statusCode) ? .success : .unsuccessfulHTTPResponseCode,
                                httpStatus: http.statusCode))
            } else {
                box.set(Outcome(result: .invalidResponse))
            }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            task.cancel()
            return Outcome(result: .timedOut)
        }
        return box.get() ?? Outcome(result: .other)
    }

    /// Apple's name for a transport failure.
    static func result(of error: Error) -> SendAttemptResult {
        guard let error = error as? URLError else { return .other }
        switch error.code {
        case .timedOut: return .timedOut
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet: return .noResponse
        case .networkConnectionLost: return .prematureClose
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .tlsIssue
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return .circularRedirect
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            return .invalidResponse
        default: return .socketIssue
        }
    }

    /// Hands the completion handler's outcome to the waiting thread.
    /// `@unchecked Sendable`: `value` is only touched while holding `lock`.
    private final class OutcomeBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Outcome?
        func set(_ outcome: Outcome) { lock.withLock { value = outcome } }
        func get() -> Outcome? { lock.withLock { value } }
    }
}
