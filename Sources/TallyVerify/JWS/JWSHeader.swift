import Foundation

/// The JOSE header fields Tally reads: `alg` and the `x5c` certificate chain.
struct JWSHeader: Decodable {
    /// The signature algorithm; only `ES256` is accepted.
    var alg: String?
    /// The certificate chain, leaf first, each standard base64 DER.
    var x5c: [String]?

    /// Decodes a base64url header segment.
    static func decode(_ segment: Substring) -> Result<JWSHeader, VerificationFailure> {
        guard let bytes = Base64URL.decode(segment) else {
            return .failure(VerificationFailure(.verificationFailure, "the JWS header is not base64url"))
        }
        do {
            return .success(try PayloadDecoding.decoder().decode(JWSHeader.self, from: Data(bytes)))
        } catch {
            return .failure(VerificationFailure(
                .verificationFailure, "the JWS header is not a JSON object with string alg and x5c: \(PayloadDecoding.describe(error))"))
        }
    }
}
