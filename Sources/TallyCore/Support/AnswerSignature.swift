import Foundation


/// The `Tally-Signature` header `tally serve` puts on every answer that carries a customer state (docs/server.md,
/// *Signed answers*): ES256 by the server's signing key over ``message(time:nonce:body:)``. The one place the
/// server (which signs) and the engine (which verifies, on Apple platforms with CryptoKit) read and write it.
///
/// Header: `v1;t=<milliseconds since 1970>;n=<the request's Tally-Nonce, or empty>;s=<base64url of r ‖ s>`.
public struct AnswerSignature: Sendable, Hashable {
    /// The answer header carrying the signature.
    public static let headerName = "Tally-Signature"
    /// The request header carrying the client's nonce, which the server signs into its answer.
    public static let nonceHeaderName = "Tally-Nonce"
    /// The format tag: the header's first field and the signed message's first line.
    public static let version = "v1"
    /// The longest nonce the server signs (a longer or malformed one is signed as the empty nonce).
    public static let maxNonceLength = 64

    /// When the server signed, in milliseconds since 1970 (its clock).
    public var time: Int64
    /// The request's nonce the server signed (empty: the request sent none, or one the server does not sign).
    public var nonce: String
    /// The ECDSA P-256 signature: r ‖ s, 32 bytes each (JWS's ES256 form).
    public var signature: [UInt8]

    /// Creates a signature from its parts.
    public init(time: Int64, nonce: String, signature: [UInt8]) {
        self.time = time
        self.nonce = nonce
        self.signature = signature
    }

    /// Why a `Tally-Signature` header cannot be read.
    public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the header.
        public var description: String
    }

    /// Reads a header value; throws when it is not exactly the v1 form with a 64-byte signature.
    public init(header: String) throws(FormatError) {
        let fields = header.split(separator: ";", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == Self.version else {
            throw FormatError(description: "not '\(Self.version);t=…;n=…;s=…'")
        }
        guard fields[1].hasPrefix("t="), let time = Int64(fields[1].dropFirst(2)), time >= 0,
              fields[1].dropFirst(2).allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw FormatError(description: "its time is not milliseconds since 1970")
        }
        let nonce = String(fields[2].dropFirst(2))
        guard fields[2].hasPrefix("n="), nonce.isEmpty || Self.isValidNonce(nonce) else {
            throw FormatError(description: "its nonce is not base64url of at most \(Self.maxNonceLength) characters")
        }
        guard fields[3].hasPrefix("s="), let signature = Self.base64URLDecode(fields[3].dropFirst(2)),
              signature.count == 64 else {
            throw FormatError(description: "its signature is not base64url of 64 bytes (r ‖ s)")
        }
        self.init(time: time, nonce: nonce, signature: signature)
    }

    /// The header value.
    public var header: String {
        "\(Self.version);t=\(time);n=\(nonce);s=\(Self.base64URLEncode(signature))"
    }

    /// When the server signed.
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(time) / 1000) }

    /// What is signed: `"tally-answer-v1\n" + time + "\n" + nonce + "\n"` (ASCII) followed by the answer's body bytes
    /// exactly as sent. ES256 hashes it with SHA-256.
    public static func message(time: Int64, nonce: String, body: some Collection<UInt8>) -> [UInt8] {
        var message = Array("tally-answer-\(version)\n\(time)\n\(nonce)\n".utf8)
        message.append(contentsOf: body)
        return message
    }

    /// This signature's message over `body`.
    public func message(body: some Collection<UInt8>) -> [UInt8] {
        Self.message(time: time, nonce: nonce, body: body)
    }

    /// Whether `nonce` is one the server signs: 1 to ``maxNonceLength`` base64url characters (`A–Z a–z 0–9 - _`).
    public static func isValidNonce(_ nonce: String) -> Bool {
        !nonce.isEmpty && nonce.utf8.count <= maxNonceLength && nonce.utf8.allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2D || byte == 0x5F
        }
    }

    /// A fresh nonce: 16 random bytes (128 bits) as base64url, 22 characters.
    public static func newNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URLEncode((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Base64url without padding.
    static func base64URLEncode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Base64url without padding; nil on any other character.
    static func base64URLDecode(_ text: some StringProtocol) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "=") })
        else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { Array($0) }
    }
}
