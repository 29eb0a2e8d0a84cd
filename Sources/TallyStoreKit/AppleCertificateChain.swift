import CryptoKit
import Foundation
import Security
import TallySignedData

/// Apple's `ChainVerifier` on Security: `x5c[0]` (leaf) through `x5c[1]` (intermediate) to one of the given roots,
/// evaluated by `SecTrust` with those roots as its only anchors, at the effective date, without the network;
/// `x5c[2]` is never trusted. Then the checks Apple's libraries add: the marker OIDs on leaf and intermediate, an
/// intermediate that is a CA, a P-256 leaf key. Extensions are read from the DER (``CertificateExtensions``):
/// iOS's Security cannot list them.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)  // SecTrustCopyCertificateChain
enum AppleCertificateChain {
    /// The leaf's key when the chain verifies.
    static func leafKey(x5c: [String], roots: [Data], at effective: EffectiveDate)
        -> Result<P256.Signing.PublicKey, VerificationFailure>
    {
        guard let leafDER = Data(base64Encoded: x5c[0]), let leaf = SecCertificateCreateWithData(nil, leafDER as CFData)
        else { return .failure(VerificationFailure(.invalidCertificate, "x5c[0] (leaf) is not a base64 DER certificate")) }
        guard let intermediateDER = Data(base64Encoded: x5c[1]),
              let intermediate = SecCertificateCreateWithData(nil, intermediateDER as CFData)
        else {
            return .failure(VerificationFailure(
                .invalidCertificate, "x5c[1] (intermediate) is not a base64 DER certificate"))
        }
        let anchors = roots.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
        var made: SecTrust?
        guard SecTrustCreateWithCertificates([leaf, intermediate] as CFArray, SecPolicyCreateBasicX509(), &made)
                == errSecSuccess, let trust = made,
              SecTrustSetAnchorCertificates(trust, anchors as CFArray) == errSecSuccess,
              SecTrustSetAnchorCertificatesOnly(trust, true) == errSecSuccess,
              SecTrustSetVerifyDate(trust, effective.date as CFDate) == errSecSuccess,
              SecTrustSetNetworkFetchAllowed(trust, false) == errSecSuccess
        else { return .failure(VerificationFailure(.verificationFailure, "Security could not set up the trust evaluation")) }
        var error: CFError?
        guard SecTrustEvaluateWithError(trust, &error) else {
            let why = error.map { String(describing: $0) } ?? "no reason given"
            return .failure(VerificationFailure(
                .verificationFailure, "the certificate chain did not verify to a trusted root, \(effective.label): \(why)"))
        }
        let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate] ?? []
        guard chain.count == 3, SecCertificateCopyData(chain[1]) as Data == intermediateDER else {
            return .failure(VerificationFailure(
                .verificationFailure,
                "the leaf does not chain through x5c[1] to a trusted root (built a chain of \(chain.count))"))
        }
        if let failure = appleChecks(leaf: leafDER, intermediate: intermediateDER) { return .failure(failure) }
        var keyError: Unmanaged<CFError>?
        guard let secKey = SecCertificateCopyKey(leaf),
              let x963 = SecKeyCopyExternalRepresentation(secKey, &keyError) as Data?,
              let key = try? P256.Signing.PublicKey(x963Representation: x963)
        else {
            _ = keyError?.takeRetainedValue()
            return .failure(VerificationFailure(
                .verificationFailure, "the leaf certificate's key is not an EC P-256 key, which ES256 requires"))
        }
        return .success(key)
    }

    /// The marker OIDs and the intermediate's CA flag; nil when they hold.
    static func appleChecks(leaf: Data, intermediate: Data) -> VerificationFailure? {
        let leafExtensions: CertificateExtensions
        let intermediateExtensions: CertificateExtensions
        do throws(DERError) {
            leafExtensions = try CertificateExtensions(certificate: leaf)
            intermediateExtensions = try CertificateExtensions(certificate: intermediate)
        } catch {
            return VerificationFailure(.invalidCertificate, "a certificate's extensions do not read: \(error)")
        }
        guard leafExtensions.contains(oid: AppleSignedData.leafMarkerOID) else {
            return VerificationFailure(
                .verificationFailure, "OID \(AppleSignedData.leafMarkerOID) was not found on the signing (leaf) certificate")
        }
        guard intermediateExtensions.contains(oid: AppleSignedData.intermediateMarkerOID) else {
            return VerificationFailure(
                .verificationFailure,
                "OID \(AppleSignedData.intermediateMarkerOID) was not found on the intermediate certificate")
        }
        guard intermediateExtensions.isCA else {
            return VerificationFailure(.verificationFailure, "the intermediate certificate is not a CA")
        }
        return nil
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)  // SecTrustCopyCertificateChain
extension AppleCertificateChain {
    /// Whether Security reads `der` as one certificate.
    static func isCertificate(_ der: Data) -> Bool {
        SecCertificateCreateWithData(nil, der as CFData) != nil
    }
}
