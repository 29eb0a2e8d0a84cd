import Foundation
import TallyCore
import TallyHTTP

extension EntitlementAPI {
    /// The request body as a JSON object: 413 over the size limit, `json_too_deep` past the depth limit and
    /// `json_too_many_elements` past the element limit (both checked before decoding), `malformed_json` for anything that is not JSON, `invalid_request` for
    /// JSON that is not an object. A number a `Decimal` cannot hold exactly is `invalid_amount` under the key
    /// `amountField`, `invalid_request` elsewhere.
    func bodyObject(_ request: HTTPRequest, amountField: String? = nil) throws(APIError) -> [String: JSONTree] {
        let limits = configuration.limits
        guard request.body.count <= limits.maxBodyBytes else { throw .bodyTooLarge(limits.maxBodyBytes) }
        let tree: JSONTree
        do {
            tree = try StrictJSONReader.read(request.body, maxDepth: limits.maxJSONDepth,
                                             maxElements: limits.maxJSONElements, name: "the body")
        } catch {
            switch error {
            case .tooDeep: throw .jsonTooDeep(error.description)
            case .tooManyElements: throw .jsonTooManyElements(error.description)
            case .malformed(let message): throw .malformedJSON(message)
            case .inexactNumber(_, let member):
                if let amountField, member == amountField { throw .invalidAmount(error.description) }
                throw .invalidRequest(member.map { "the field \"\($0)\": \(error.description)" } ?? error.description)
            }
        }
        guard case .object(let members) = tree else {
            throw .invalidRequest("the body must be a JSON object, not \(tree.typeName)")
        }
        return members
    }

    /// The required string member `name` of a body that carries a signed token: the common `{"<name>":"<JWS>"}`
    /// read in one pass (``CompactTokenMember``), any other body through ``bodyObject(_:amountField:)`` (same value,
    /// or its error).
    func tokenField(_ request: HTTPRequest, named name: StaticString) throws(APIError) -> String {
        if request.body.count <= configuration.limits.maxBodyBytes,
           let token = CompactTokenMember.value(named: name, in: request.body) {
            return token
        }
        return try requiredString(bodyObject(request), name.description)
    }

    /// A required non-empty string field.
    func requiredString(_ members: [String: JSONTree], _ name: String) throws(APIError) -> String {
        guard let value = members[name] else { throw .invalidRequest("the field \"\(name)\" is missing") }
        guard case .string(let text) = value else {
            throw .invalidRequest("the field \"\(name)\" must be a string, not \(value.typeName)")
        }
        guard !text.isEmpty else { throw .invalidRequest("the field \"\(name)\" is empty") }
        return text
    }
}
