import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Blocking HTTP calls for the benchmark's setup (seeding, fetching the body to compare), over URLSession.
enum BenchHTTP {
    /// The body of a GET that answered 200.
    static func get(_ url: String, headers: [String: String] = [:]) throws -> Data {
        try send("GET", url, headers: headers, body: nil).body
    }

    /// GETs `url` and returns the answer's header `name` (nil when absent); throws unless the status is 200.
    static func header(_ name: String, of url: String, headers: [String: String] = [:]) throws -> String? {
        try send("GET", url, headers: headers, body: nil).headers[name.lowercased()]
    }

    /// POSTs `body` and returns the answer's body; throws unless the status is 200.
    static func post(_ url: String, headers: [String: String] = [:], body: Data) throws -> Data {
        try send("POST", url, headers: headers, body: body).body
    }

    /// `@unchecked Sendable`: written once by the completion handler before `done` is signalled, read after.
    private final class Outcome: @unchecked Sendable {
        var result: Result<(body: Data, headers: [String: String]), BenchError> = .failure(BenchError("no answer"))
        let done = DispatchSemaphore(value: 0)
    }

    private static func send(_ method: String, _ url: String, headers: [String: String], body: Data?) throws
        -> (body: Data, headers: [String: String])
    {
        guard let address = URL(string: url) else { throw BenchError("bad URL \(url)") }
        var request = URLRequest(url: address, timeoutInterval: 30)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let outcome = Outcome()
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if let error {
                outcome.result = .failure(BenchError("\(method) \(url): \(error.localizedDescription)"))
            } else if status != 200 {
                let text = String(decoding: data ?? Data(), as: UTF8.self)
                outcome.result = .failure(BenchError("\(method) \(url) answered \(status): \(text)"))
            } else {
                var fields: [String: String] = [:]
                for case let (name as String, value as String) in (response as? HTTPURLResponse)?.allHeaderFields ?? [:] {
                    fields[name.lowercased()] = value
                }
                outcome.result = .success((data ?? Data(), fields))
            }
            outcome.done.signal()
        }.resume()
        outcome.done.wait()
        return try outcome.result.get()
    }
}
