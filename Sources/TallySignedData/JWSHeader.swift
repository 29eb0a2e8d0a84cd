import Foundation
import TallyCore

/// The JOSE header fields Tally reads: `alg`, the `x5c` certificate chain, and whether `crit` is present.
package struct JWSHeader: Decodable {
    /// The signature algorithm; only `ES256` is accepted.
    package var alg: String?
    /// The certificate chain, leaf first, each standard base64 DER.
    package var x5c: [String]?
    /// `crit` as written, when the header has one (any value, even `null`); Tally understands no critical
    /// header extensions, so a header with `crit` is refused (RFC 7515 §4.1.11), as Apple's library does.
    package var crit: JSONValue?

    enum Key: String, CodingKey { case alg, x5c, crit }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        alg = try c.decodeIfPresent(String.self, forKey: .alg)
        x5c = try c.decodeIfPresent([String].self, forKey: .x5c)
        crit = c.contains(.crit) ? try c.decode(JSONValue.self, forKey: .crit) : nil
    }

    /// Decodes a base64url header segment; a header with `crit` is a failure.
    package static func decode(_ segment: Substring) -> Result<JWSHeader, VerificationFailure> {
        guard let bytes = Base64URL.decode(segment) else {
            return .failure(VerificationFailure(.verificationFailure, "the JWS header is not base64url"))
        }
        let header: JWSHeader
        do {
            header = try PayloadDecoding.decoder().decode(JWSHeader.self, from: Data(bytes))
        } catch {
            return .failure(VerificationFailure(
                .verificationFailure, "the JWS header is not a JSON object with string alg and x5c: \(PayloadDecoding.describe(error))"))
        }
        if let crit = header.crit {
            return .failure(VerificationFailure(
                .verificationFailure,
                "the JWS header has crit \(Self.describe(crit)); no critical header extension is understood, "
                    + "so the JWS is refused (RFC 7515 §4.1.11)"))
        }
        return .success(header)
    }

    /// Decodes a header segment and applies Apple's header rules: no `crit`, `x5c` present, `alg` ES256, exactly
    /// three certificates; gives the `x5c` list.
    package static func checkedChain(_ segment: Substring) -> Result<[String], VerificationFailure> {
        decode(segment).flatMap { header in
            guard let x5c = header.x5c, !x5c.isEmpty else {
                return .failure(VerificationFailure(.verificationFailure, "the JWS header has no x5c certificate chain"))
            }
            guard header.alg == "ES256" else {
                let alg = header.alg.map { "\"\($0)\"" } ?? "missing"
                return .failure(VerificationFailure(.verificationFailure, "the JWS alg is \(alg); only ES256 is accepted"))
            }
            guard x5c.count == 3 else { return .failure(chainLength(x5c.count)) }
            return .success(x5c)
        }
    }

    /// INVALID_CHAIN_LENGTH for an `x5c` of `count` certificates.
    package static func chainLength(_ count: Int) -> VerificationFailure {
        VerificationFailure(
            .invalidChainLength, "x5c holds \(count) certificates; exactly 3 (leaf, intermediate, root) are required")
    }

    /// `["exp"]`, or the JSON type for a `crit` that is not a list of names.
    static func describe(_ crit: JSONValue) -> String {
        guard case .array(let items) = crit else { return "(not a list of names)" }
        let names = items.map { item -> String in
            if case .string(let name) = item { return "\"\(name)\"" }
            return "(not a name)"
        }
        return "[" + names.joined(separator: ", ") + "]"
    }
}
