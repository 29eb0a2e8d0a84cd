import Foundation
import TallyCore
import TallyCrypto

extension ServerConfiguration {
    static let customersKeys = ["requireToken", "tokenKeys", "audience", "maximumTokenSeconds"]
    static let tokenKeyKeys = ["id", "alg", "secretFile", "publicKey"]

    /// `customers`: whether tokens are required and the keys that check them. A secret lives in its own file (the
    /// configuration may be shared), read as base64 text of at least 32 bytes; a public key is a PEM or DER SPKI
    /// file of a P-256 key.
    static func loadCustomers(_ node: JSONCursor?, reader: inout ConfigurationReader) -> CustomerSettings {
        var settings = CustomerSettings()
        guard let node, let members = reader.object(node, allowed: customersKeys) else { return settings }
        if let value = members["requireToken"], let flag = reader.bool(value) { settings.requireToken = flag }
        if let value = members["audience"], let text = reader.string(value) {
            if text.isEmpty { reader.problem("customers.audience", "must not be empty") } else { settings.audience = text }
        }
        if let value = members["maximumTokenSeconds"], let seconds = reader.integer(value, in: 60...604_800) {
            settings.maximumTokenSeconds = Int(seconds)
        }
        if let value = members["tokenKeys"], let elements = reader.array(value) {
            var ids = Set<String>()
            for element in elements {
                guard let key = loadTokenKey(element, reader: &reader) else { continue }
                if let id = key.id, !ids.insert(id).inserted {
                    reader.problem(element.path(of: "id"), "\"\(id)\" is the id of another token key")
                }
                settings.tokenKeys.append(key)
            }
        }
        if settings.requireToken, settings.tokenKeys.isEmpty {
            reader.problem("customers.tokenKeys", "must hold at least one key when customers.requireToken is true "
                + "(make one with 'tally serve customer-token --new-secret FILE')")
        }
        return settings
    }

    private static func loadTokenKey(_ element: JSONCursor, reader: inout ConfigurationReader) -> CustomerTokenKey? {
        guard let members = reader.object(element, allowed: tokenKeyKeys) else { return nil }
        let id = members["id"].flatMap { reader.string($0) }
        switch members["alg"].flatMap({ reader.string($0) }) {
        case "HS256":
            guard let value = members["secretFile"] else {
                reader.problem(element.path(of: "secretFile"), "is required for an HS256 key: a file holding the "
                    + "shared secret as base64 (at least 32 bytes)")
                return nil
            }
            guard let file = reader.file(value) else { return nil }
            guard let key = CustomerTokenKey.hs256(id: id, secretFile: file.data) else {
                reader.problem(element.path(of: "secretFile"), "must hold base64 of at least "
                    + "\(CustomerTokenKey.minimumSecretBytes) random bytes (make one with "
                    + "'tally serve customer-token --new-secret FILE')")
                return nil
            }
            return key
        case "ES256":
            guard let value = members["publicKey"] else {
                reader.problem(element.path(of: "publicKey"), "is required for an ES256 key: a PEM or DER public key file")
                return nil
            }
            guard let file = reader.file(value) else { return nil }
            guard let key = PublicKey(spki: [UInt8](file.data)), key.isP256 else {
                reader.problem(element.path(of: "publicKey"), "must be a P-256 public key (PEM BEGIN PUBLIC KEY or DER)")
                return nil
            }
            return .es256(id: id, publicKey: key)
        case let other?:
            reader.problem(element.path(of: "alg"), "must be \"HS256\" or \"ES256\", not \"\(other)\"")
            return nil
        case nil:
            reader.problem(element.path(of: "alg"), "is required: \"HS256\" or \"ES256\"")
            return nil
        }
    }
}
