import Foundation
import TallyHTTP

/// A handler that records every request it sees and answers 200 with `method path` and the body length.
///
/// `@unchecked Sendable`: `seen` is read and written only while holding `lock`.
final class RecordingHandler: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [HTTPRequest] = []

    /// The requests handled so far, in order.
    var requests: [HTTPRequest] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }

    /// Answers `request`, recording it.
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        lock.lock()
        seen.append(request)
        lock.unlock()
        let text = "\(request.method) \(request.path) \(request.body.count)"
        return HTTPResponse(
            status: 200, headers: [HTTPResponse.Field("Content-Type", "text/plain"), HTTPResponse.Field("X-Echo", "yes")],
            body: Array(text.utf8))
    }

    /// Starts a server on a free loopback port that answers with this handler.
    func startServer(maxBodyBytes: Int = 1 << 20, threads: Int = 2,
                     bodyLimit: (@Sendable (String, String) -> Int)? = nil,
                     refusal: @escaping @Sendable (HTTPRequest, HTTPRefusal) -> HTTPResponse =
                        HTTPServer.Configuration.plainTextRefusal) throws -> HTTPServer {
        let configuration = HTTPServer.Configuration(
            port: 0, threads: threads, maxBodyBytes: maxBodyBytes, bodyLimit: bodyLimit, refusal: refusal)
        return try HTTPServer(configuration: configuration) { [self] request in handle(request) }
    }
}

/// A GET request for `path` on the raw wire.
func rawGet(_ path: String, extraHeaders: String = "") -> String {
    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extraHeaders)\r\n"
}
