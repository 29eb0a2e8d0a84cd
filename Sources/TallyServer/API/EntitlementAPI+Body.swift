import Foundation
import TallyHTTP

extension EntitlementAPI {
    /// The request body as a JSON object: 413 over the size limit, `json_too_deep` past the depth limit
    /// (checked before decoding), `malformed_json` for anything that is not JSON, `invalid_request` for
    /// JSON that is not an object.
    func bodyObject(_ request: HTTPRequest) throws(APIError) -> [String: JSONNode] {
        let limits = configuration.limits
        guard request.body.count <= limits.maxBodyBytes else { throw .bodyTooLarge(limits.maxBodyBytes) }
        let node: JSONNode
        do {
            node = try JSONParser.parse(request.body, maxDepth: limits.maxJSONDepth)
        } catch {
            switch error {
            case .tooDeep: throw .jsonTooDeep(error.description)
            case .malformed(let message): throw .malformedJSON(message)
            }
        }
        guard case .object(let members) = node else {
            throw .invalidRequest("the body must be a JSON object, not \(node.kindName)")
        }
        return members
    }

    /// A required non-empty string field.
    func requiredString(_ members: [String: JSONNode], _ name: String) throws(APIError) -> String {
        guard let node = members[name] else { throw .invalidRequest("the field \"\(name)\" is missing") }
        guard case .string(let text) = node else {
            throw .invalidRequest("the field \"\(name)\" must be a string, not \(node.kindName)")
        }
        guard !text.isEmpty else { throw .invalidRequest("the field \"\(name)\" is empty") }
        return text
    }
}
