import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// `/v1/customers/{appUserId}/attributes`: `POST {"attributes":{"email":"a@b.c","campaign":null}}` merges (a null
    /// deletes; public key, like the other customer routes) and answers the attributes after it; `GET` (secret key
    /// only: attributes may be personal data) answers them. 422 `invalid_attributes` names the key past a bound
    /// (``TallyCore/CustomerAttributes``) or whose value is not a string or null.
    func attributes(_ appUserId: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let kept: [String: String]
        if request.method == "POST" {
            let changes = try attributeChanges(request)
            do throws(CustomerStoreError) {
                kept = try noteWrite { () throws(CustomerStoreError) in try store.setAttributes(changes, for: appUserId) }
            } catch {
                // Refused by the bounds against the attributes the write found (past 100 keys): nothing was written.
                if error.reason == .refused { throw .invalidAttributes(error.message) }
                throw .storeFailure(error)
            }
        } else {
            guard let key = KeyRing.bearerToken(request.header("authorization")), keys.entry(forKey: key)?.role == .secret
            else { throw .forbidden }
            kept = try storeCall { () throws(CustomerStoreError) in try store.attributes(of: appUserId) }
        }
        return APIResponse.json(JSONWriter.object { writer in
            writer.field("appUserId", appUserId)
            writer.field("attributes", raw: Self.encodeAttributes(kept))
        })
    }

    /// The body's `attributes` object as changes (nil: delete), each key and value checked against the bounds.
    private func attributeChanges(_ request: HTTPRequest) throws(APIError) -> [String: String?] {
        guard let value = try bodyObject(request)["attributes"] else {
            throw .invalidRequest("the field \"attributes\" is missing")
        }
        guard case .object(let members) = value else {
            throw .invalidAttributes("\"attributes\" must be a JSON object, not \(value.typeName)")
        }
        var changes: [String: String?] = [:]
        for (key, member) in members {
            switch member {
            case .string(let text): changes[key] = .some(text)
            case .null: changes[key] = .some(nil)
            default: throw .invalidAttributes("the attribute '\(key.prefix(CustomerAttributes.maxKeyBytes))' must be a string "
                + "or null, not \(member.typeName)")
            }
            if let problem = CustomerAttributes.problem(key: key, value: changes[key] ?? nil) { throw .invalidAttributes(problem) }
        }
        return changes
    }

    /// `{"key":"value",…}` in the keys' byte order.
    static func encodeAttributes(_ attributes: [String: String]) -> [UInt8] {
        JSONWriter.object { writer in
            for key in attributes.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                writer.field(key, attributes[key])
            }
        }
    }
}
