import Foundation

/// Changes a compact JWS's payload while keeping its header and signature.
enum JWSTampering {
    /// The JWS with `change` applied to its payload's JSON object; the signature no longer matches.
    static func tampered(_ jws: String, _ change: (inout [String: Any]) -> Void) throws -> String {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let payload = base64URLDecode(parts[1]),
              var object = try JSONSerialization.jsonObject(with: payload) as? [String: Any] else {
            throw HarnessError("not a compact JWS with a JSON payload")
        }
        change(&object)
        let changed = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return [parts[0], base64URLEncode(changed), parts[2]].joined(separator: ".")
    }

    static func base64URLDecode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    static func base64URLEncode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
