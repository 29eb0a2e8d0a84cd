import Foundation
import TallyCore
import TallyHTTP

/// A JSON request body read as Apple's endpoints read it: a JSON object, its fields typed (a `true` is never a
/// `1`); anything else is Apple's 400 without an error code.
struct APIRequestBody {
    /// The fields.
    var fields: [String: JSONValue]
    /// The body as received.
    var text: String

    init(_ request: HTTPRequest) throws(AppStoreAPIError) {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(request.body)) else {
            throw .malformedRequest
        }
        fields = object
        text = String(decoding: request.body, as: UTF8.self)
    }

    /// Whether the field is present and not null.
    func has(_ name: String) -> Bool {
        switch fields[name] { case nil, .null?: false; default: true }
    }

    /// A boolean field; `error` when absent or not a boolean.
    func bool(_ name: String, or error: AppStoreAPIError) throws(AppStoreAPIError) -> Bool {
        guard case .bool(let value)? = fields[name] else { throw error }
        return value
    }

    /// An integer field within `range`; `error` when absent, not an integer or out of range.
    func integer(_ name: String, in range: ClosedRange<Int64>, or error: AppStoreAPIError) throws(AppStoreAPIError) -> Int {
        guard case .integer(let value)? = fields[name], range.contains(value) else { throw error }
        return Int(value)
    }

    /// A string field; `error` when absent or not a string.
    func string(_ name: String, or error: AppStoreAPIError) throws(AppStoreAPIError) -> String {
        guard case .string(let value)? = fields[name] else { throw error }
        return value
    }
}
