import CryptoKit
import Foundation
import TallyCore
import TallySignedData

/// App Store signed data (JWS) verified with Apple's frameworks alone, for one app in one environment: the checks
/// TallyVerify's `SignedDataVerifier` makes offline, in the same order and with the same rules (TallySignedData),
/// but with CryptoKit for the ES256 signature and Security for the chain (``AppleCertificateChain``). The
/// certificates are judged at the payload's `signedDate` (Apple's offline rule); nothing goes to the network.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)  // SecTrustCopyCertificateChain
package struct AppleSignedDataVerifier: Sendable {
    /// The app and environment the payload must name.
    package let rules: ClaimsRules
    /// DER of the roots a chain must end at.
    let roots: [Data]

    /// A verifier for `rules`, trusting `roots` (DER).
    package init(rules: ClaimsRules, roots: [Data]) {
        self.rules = rules
        self.roots = roots
    }

    /// Every check for `kind`, then the payload decoded into `Model` (`JSONValue` for the raw payload).
    package func verify<Model: Decodable>(_ jws: String, as model: Model.Type, kind: SignedPayloadKind)
        -> Result<Model, VerificationFailure>
    {
        let parts: CompactJWS
        let envelope: PayloadEnvelope<Model>
        switch CompactJWS.split(jws, maximumLength: AppleSignedData.maximumJWSLength)
            .flatMap({ parts in parts.payloadBytes.map { (parts, $0) } })
            .flatMap({ parts, bytes in PayloadDecoding.envelope(bytes, as: Model.self).map { (parts, $0) } })
        {
        case .success(let value): (parts, envelope) = value
        case .failure(let failure): return .failure(failure)
        }
        if AppleSignedData.skipsSignature(rules.environment) {
            if case .failure(let failure) = JWSHeader.decode(parts.header) { return .failure(failure) }
        } else if let failure = verifySignature(parts, claims: envelope.claims) {
            return .failure(failure)
        }
        if let failure = rules.check(envelope.claims, kind: kind) { return .failure(failure) }
        return envelope.model.mapError { PayloadDecoding.undecodable($0, kind: kind) }
    }

    /// Header rules, the chain at the effective date, then the ES256 signature over `header.payload`; nil when all
    /// pass.
    func verifySignature(_ parts: CompactJWS, claims: SignedClaims) -> VerificationFailure? {
        let effective = EffectiveDate.resolve(nil, onlineChecks: false, claims: claims)
        let key: P256.Signing.PublicKey
        switch JWSHeader.checkedChain(parts.header).flatMap({
            AppleCertificateChain.leafKey(x5c: $0, roots: roots, at: effective)
        }) {
        case .success(let value): key = value
        case .failure(let failure): return failure
        }
        let raw: [UInt8]
        switch parts.rawSignature {
        case .success(let value): raw = value
        case .failure(let failure): return failure
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: raw),
              key.isValidSignature(signature, for: Data(parts.signingInput.utf8))
        else { return CompactJWS.signatureMismatch }
        return nil
    }
}
