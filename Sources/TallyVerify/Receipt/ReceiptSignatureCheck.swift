import COpenSSL
import Foundation
import TallyCrypto

/// One receipt's cryptographic check: signer chain to a trusted root at `instant`, Apple's OIDs, and
/// the PKCS#7 signature over the payload — all through OpenSSL (`X509_verify_cert`, `PKCS7_verify`).
struct ReceiptSignatureCheck {
    /// Apple's "Mac App Store receipt signing" extension on the leaf.
    static let receiptSigningOID = "1.2.840.113635.100.6.11.1"
    /// Apple's "WWDR intermediate" extension.
    static let intermediateOID = "1.2.840.113635.100.6.2.1"

    let verifier: ReceiptVerifier
    let container: ReceiptPKCS7
    /// When certificate validity is evaluated.
    let instant: Date
    /// The receipt's creation date, for details.
    let creationDate: Date

    /// Runs every check; throws the first failure.
    func run() throws(VerificationFailure) {
        var anchors: [Certificate] = []
        for (index, root) in verifier.trustedRoots.enumerated() {
            anchors.append(try Self.certificate(root, role: "trusted root \(index + 1)"))
        }
        var storeKit: Certificate?
        if let der = verifier.storeKitTestCertificate {
            let certificate = try Self.certificate(der, role: "StoreKit test certificate")
            storeKit = certificate
            anchors.append(certificate)
        }
        let store = try makeStore(trusting: anchors)
        defer { X509_STORE_free(store) }
        let signer = try signerCertificate()
        let chain = try verifiedChain(of: signer, store: store)
        if let storeKit, chain.count == 1, chain[0].der == storeKit.der {
            // A StoreKit Testing receipt: self-signed by the configured Xcode certificate, no Apple OIDs.
        } else {
            try checkAppleExtensions(chain)
        }
        try checkSignature(store: store)
    }

    /// Parses a configured certificate; `role` names it in the failure ("trusted root 1").
    static func certificate(_ der: Data, role: String) throws(VerificationFailure) -> Certificate {
        guard let certificate = Certificate(der: der) else {
            throw VerificationFailure(.invalidCertificate, "the \(role) (\(der.count) bytes) is not a DER X.509 certificate")
        }
        return certificate
    }

    /// The queued OpenSSL errors as text, or `fallback` when there are none.
    static func openSSLDetail(_ fallback: String) -> String {
        let detail = CryptoError.drain()
        return detail.isEmpty ? fallback : detail
    }

    /// A store trusting `anchors`, evaluating validity at `instant`.
    private func makeStore(trusting anchors: [Certificate]) throws(VerificationFailure) -> OpaquePointer {
        guard let store = X509_STORE_new() else {
            throw VerificationFailure(.verificationFailure, "OpenSSL could not allocate a certificate store")
        }
        for anchor in anchors { X509_STORE_add_cert(store, anchor.x509) }
        let param = X509_STORE_get0_param(store)
        let seconds = instant.timeIntervalSince1970
        let clamped = seconds.isFinite ? min(max(seconds, -1e15), 1e15) : 0
        X509_VERIFY_PARAM_set_time(param, time_t(clamped.rounded(.down)))
        // Receipts before 2023 are SHA-1/RSA-2048 chains; Apple asks validators to accept them.
        X509_VERIFY_PARAM_set_auth_level(param, 0)
        X509_STORE_set_purpose(store, X509_PURPOSE_ANY)
        ERR_clear_error()
        return store
    }

    /// The one signer certificate, found among the embedded certificates.
    private func signerCertificate() throws(VerificationFailure) -> Certificate {
        ERR_clear_error()
        guard let signers = PKCS7_get0_signers(container.pointer, nil, 0) else {
            throw VerificationFailure(
                .verificationFailure,
                "the receipt's signer certificate is not in the receipt: \(Self.openSSLDetail("no signer"))")
        }
        defer { OPENSSL_sk_free(signers) }
        guard OPENSSL_sk_num(signers) == 1, let first = OPENSSL_sk_value(signers, 0) else {
            throw VerificationFailure(.verificationFailure, "the receipt has \(OPENSSL_sk_num(signers)) signers, expected exactly one")
        }
        guard let signer = Certificate(retaining: OpaquePointer(first)) else {
            throw VerificationFailure(.verificationFailure, "the receipt's signer certificate cannot be read")
        }
        return signer
    }

    /// The chain from `signer` to a trusted anchor, built from the embedded certificates.
    private func verifiedChain(of signer: Certificate, store: OpaquePointer) throws(VerificationFailure) -> [Certificate] {
        guard let context = X509_STORE_CTX_new() else {
            throw VerificationFailure(.verificationFailure, "OpenSSL could not allocate a verification context")
        }
        defer { X509_STORE_CTX_free(context) }
        let untrusted = try container.embeddedCertificates()
        guard X509_STORE_CTX_init(context, store, signer.x509, untrusted) == 1 else {
            throw VerificationFailure(.verificationFailure, "OpenSSL could not start chain verification")
        }
        if X509_verify_cert(context) != 1 {
            throw chainFailure(context)
        }
        ERR_clear_error()
        guard let chain = X509_STORE_CTX_get0_chain(context) else { return [] }
        return (0..<OPENSSL_sk_num(chain)).compactMap { index in
            OPENSSL_sk_value(chain, index).flatMap { Certificate(retaining: OpaquePointer($0)) }
        }
    }

    /// Maps OpenSSL's chain error to Apple's reasons.
    private func chainFailure(_ context: OpaquePointer) -> VerificationFailure {
        let code = X509_STORE_CTX_get_error(context)
        ERR_clear_error()
        let reason = String(cString: X509_verify_cert_error_string(Int(code)))
        let certificate = X509_STORE_CTX_get_current_cert(context).flatMap { Certificate(retaining: $0) }
        let subject = certificate.map { "\"\($0.subject)\"" } ?? "the signer"
        if code == X509_V_ERR_CERT_HAS_EXPIRED || code == X509_V_ERR_CERT_NOT_YET_VALID {
            let window = certificate.map {
                " (valid \(ReceiptTimestamp.text($0.notBefore)) – \(ReceiptTimestamp.text($0.notAfter)))"
            } ?? ""
            return VerificationFailure(
                .invalidCertificate,
                "certificate \(subject)\(window) is not valid at \(ReceiptTimestamp.text(instant)); "
                    + "receipt created \(ReceiptTimestamp.text(creationDate)): \(reason)")
        }
        return VerificationFailure(.verificationFailure, "chain does not lead to a trusted root: \(reason) at \(subject)")
    }

    /// The leaf must carry 1.2.840.113635.100.6.11.1 and the next certificate 1.2.840.113635.100.6.2.1.
    private func checkAppleExtensions(_ chain: [Certificate]) throws(VerificationFailure) {
        guard let leaf = chain.first, leaf.hasExtension(oid: Self.receiptSigningOID) else {
            throw VerificationFailure(
                .verificationFailure,
                "the signing certificate lacks Apple's receipt-signing extension \(Self.receiptSigningOID)")
        }
        guard chain.count >= 2, chain[1].hasExtension(oid: Self.intermediateOID) else {
            throw VerificationFailure(
                .verificationFailure,
                "the intermediate certificate lacks Apple's WWDR extension \(Self.intermediateOID) (chain of \(chain.count))")
        }
    }

    /// `PKCS7_verify` over the embedded content with the same store: digest and RSA signature.
    private func checkSignature(store: OpaquePointer) throws(VerificationFailure) {
        ERR_clear_error()
        guard PKCS7_verify(container.pointer, nil, store, nil, nil, 0) == 1 else {
            let code = ERR_peek_last_error()
            let detail = Self.openSSLDetail("no detail")
            if ERR_GET_REASON(code) == PKCS7_R_CERTIFICATE_VERIFY_ERROR {
                throw VerificationFailure(.verificationFailure, "chain does not lead to a trusted root: \(detail)")
            }
            throw VerificationFailure(.verificationFailure, "signature does not match the content: \(detail)")
        }
        ERR_clear_error()
    }
}
