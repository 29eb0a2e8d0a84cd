import Foundation

extension Data {
    /// Base64url without padding (RFC 7515 §2), as JWS segments use.
    var base64URLEncodedString: String {
        var text = base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
