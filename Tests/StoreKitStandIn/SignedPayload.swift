import Foundation

/// The JSON payload of a compact JWS, read the way StoreKit exposes it (`jsonRepresentation`): the middle segment,
/// base64url-decoded. The stand-in reads scripted values from it; it checks no signature (StoreKit's verdict is
/// scripted as `VerificationResult.verified` or `.unverified`).
struct SignedPayload: Sendable {
    let data: Data
    let fields: [String: any Sendable]

    init(jws: String) throws(ScriptError) {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw ScriptError("a JWS has 3 dot-separated parts; this one has \(parts.count)") }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ScriptError("the JWS payload is not base64url JSON")
        }
        self.data = data
        var fields: [String: any Sendable] = [:]
        for (key, value) in object {
            switch value {
            case let number as NSNumber: fields[key] = number.int64Value
            case let string as String: fields[key] = string
            case let list as [Any]: fields[key] = list.compactMap { $0 as? String }
            default: break
            }
        }
        // Booleans arrive as NSNumber too; read through `bool`.
        self.fields = fields
        self.flags = object.compactMapValues { ($0 as? NSNumber)?.boolValue }
    }

    private let flags: [String: Bool]

    func string(_ key: String) -> String? {
        if let text = fields[key] as? String { return text }
        if let number = fields[key] as? Int64 { return String(number) }
        return nil
    }

    func id(_ key: String) throws(ScriptError) -> UInt64 {
        guard let text = string(key), let id = UInt64(text) else {
            throw ScriptError("the payload's \(key) is not a UInt64 (StoreKit's ids are)")
        }
        return id
    }

    /// An array of strings (its other elements left out).
    func strings(_ key: String) -> [String]? { fields[key] as? [String] }

    func int(_ key: String) -> Int? { (fields[key] as? Int64).map(Int.init) }

    func bool(_ key: String) -> Bool? { flags[key] }

    /// A date in milliseconds since 1970, as Apple's payloads carry them.
    func date(_ key: String) -> Date? {
        (fields[key] as? Int64).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}

/// A scripted value the stand-in cannot use (a JWS that is not one, an id that is not a number).
@_spi(Scripting) public struct ScriptError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the scripted value.
    public let description: String
    init(_ description: String) { self.description = description }
}
