import Foundation

/// A response as the tests see it: status, headers (names lowercased) and body.
struct HTTPReply: Sendable, CustomStringConvertible {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object.
    func json() throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw HarnessError("the body is not a JSON object (status \(status)): \(text.prefix(500))")
        }
        return object
    }

    /// `error.code` of an error body, nil otherwise.
    var errorCode: String? {
        ((try? json())?["error"] as? [String: Any])?["code"] as? String
    }

    /// The `error` object of an error body.
    func error() throws -> [String: Any] {
        guard let error = try json()["error"] as? [String: Any] else {
            throw HarnessError("no 'error' object in the body (status \(status)): \(text.prefix(500))")
        }
        return error
    }

    /// The `customer` object of a success body.
    func customer() throws -> [String: Any] {
        guard let customer = try json()["customer"] as? [String: Any] else {
            throw HarnessError("no 'customer' object in the body (status \(status)): \(text.prefix(500))")
        }
        return customer
    }

    /// A header by name (any case).
    func header(_ name: String) -> String? { headers[name.lowercased()] }

    var description: String { "HTTP \(status) \(text.prefix(300))" }
}
