import COpenSSL
import Foundation

extension SignedDataVerifier {
    /// Apple's marker extension on the App Store signing leaf (Mac App Store receipt signing).
    public static let leafMarkerOID = AppleSignedData.leafMarkerOID
    /// Apple's marker extension on the WWDR intermediate.
    public static let intermediateMarkerOID = AppleSignedData.intermediateMarkerOID

    /// Full chain verification of `x5c[0]` (leaf) and `x5c[1]` (intermediate) to a configured root at
    /// `effective`; `x5c[2]` is never trusted.
    func verifyChain(_ x5c: [String], at effective: EffectiveDate) -> Result<ChainCache.Entry, VerificationFailure> {
        guard let leaf = Certificate(base64: x5c[0]) else {
            return .failure(VerificationFailure(.invalidCertificate, "x5c[0] (leaf) is not a base64 DER certificate"))
        }
        guard let intermediate = Certificate(base64: x5c[1]) else {
            return .failure(VerificationFailure(
                .invalidCertificate, "x5c[1] (intermediate) is not a base64 DER certificate"))
        }
        let chain: VerifiedChain
        switch trustStore.verify(
            leaf: leaf, intermediates: [intermediate], at: effective.date, strict: configuration.strictChecks)
        {
        case .success(let value): chain = value
        case .failure(let error):
            return .failure(VerificationFailure(.verificationFailure, describe(error, leaf, intermediate, effective)))
        }
        guard chain.certificates.count == 3, chain.certificates[1].der == intermediate.der else {
            return .failure(VerificationFailure(
                .verificationFailure,
                "the leaf does not chain through x5c[1] to a trusted root (built a chain of \(chain.certificates.count))"))
        }
        guard leaf.hasExtension(oid: Self.leafMarkerOID) else {
            return .failure(VerificationFailure(
                .verificationFailure,
                "OID \(Self.leafMarkerOID) was not found on the signing (leaf) certificate \(leaf.subject)"))
        }
        guard intermediate.hasExtension(oid: Self.intermediateMarkerOID) else {
            return .failure(VerificationFailure(
                .verificationFailure,
                "OID \(Self.intermediateMarkerOID) was not found on the intermediate certificate \(intermediate.subject)"))
        }
        guard intermediate.isCA else {
            return .failure(VerificationFailure(
                .verificationFailure, "the intermediate certificate \(intermediate.subject) is not a CA"))
        }
        guard let key = leaf.publicKey, key.isP256 else {
            return .failure(VerificationFailure(
                .verificationFailure, "the leaf certificate's key is not an EC P-256 key, which ES256 requires"))
        }
        return .success(ChainCache.Entry(leafKey: key, validity: chain.validity, chain: chain.certificates))
    }

    /// A failure detail for an OpenSSL chain error, with dates for validity errors.
    func describe(_ error: ChainError, _ leaf: Certificate, _ intermediate: Certificate, _ effective: EffectiveDate)
        -> String
    {
        let names = ["leaf", "intermediate", "root"]
        let role = names.indices.contains(Int(error.depth)) ? names[Int(error.depth)] : "depth \(error.depth)"
        if error.isExpired || error.isNotYetValid {
            // OpenSSL reports the first failure from the root down; name the lowest invalid certificate.
            let roots = trustStore.roots.filter { $0.subject == intermediate.issuer }.map { ("root", $0) }
            let candidates = [("leaf", leaf), ("intermediate", intermediate)] + roots
            if let (name, certificate) = candidates.first(where: { !$0.1.isValid(at: effective.date) }) {
                if effective.date > certificate.notAfter {
                    return "\(name) certificate expired \(EffectiveDate.day(certificate.notAfter)), \(effective.label)"
                }
                return "\(name) certificate not valid until \(EffectiveDate.day(certificate.notBefore)), \(effective.label)"
            }
            return "\(role) certificate \(error.isExpired ? "expired" : "not yet valid"), \(effective.label)"
        }
        switch error.code {
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
             X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
            return "the chain does not lead to a trusted root certificate (\(error.message) at the \(role))"
        case X509_V_ERR_INVALID_CA:
            return "the \(role) certificate is not a CA (\(error.message))"
        default:
            return "the certificate chain did not verify: \(error.message) at the \(role), \(effective.label)"
        }
    }
}
