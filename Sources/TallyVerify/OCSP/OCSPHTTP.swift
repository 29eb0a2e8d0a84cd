import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends an OCSP request over HTTP (RFC 6960 appendix A: POST `application/ocsp-request`).
enum OCSPHTTP {
    /// POSTs `body` to `url` and waits for the answer, at most `timeout` seconds.
    static func post(_ body: [UInt8], to url: URL, timeout: TimeInterval) -> Result<[UInt8], OCSPError> {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/ocsp-request", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                box.set(.failure(OCSPError(retryable: true, message: "OCSP responder \(url) unreachable: \(error.localizedDescription)")))
            } else if let http = response as? HTTPURLResponse, http.statusCode != 200 {
                box.set(.failure(OCSPError(retryable: true, message: "OCSP responder \(url) answered HTTP \(http.statusCode)")))
            } else {
                box.set(.success(Array(data ?? Data())))
            }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            task.cancel()
            return .failure(OCSPError(retryable: true, message: "OCSP responder \(url) did not answer within \(Int(timeout)) s"))
        }
        return box.get() ?? .failure(OCSPError(retryable: true, message: "OCSP request to \(url) gave no result"))
    }

    /// Hands the completion handler's result to the waiting thread.
    /// `@unchecked Sendable`: `value` is only touched while holding `lock`.
    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Result<[UInt8], OCSPError>?
        func set(_ result: Result<[UInt8], OCSPError>) { lock.withLock { value = result } }
        func get() -> Result<[UInt8], OCSPError>? { lock.withLock { value } }
    }
}
