import Foundation

/// Verifies legacy App Store app receipts (base64 PKCS#7) offline with OpenSSL, the way Apple
/// prescribes: signature over the payload, signer chain to a trusted root evaluated at the receipt
/// creation date (type 12), Apple's receipt-signing OIDs, then the bundle id.
///
/// ```swift
/// let verifier = try ReceiptVerifier(expectedBundleId: "com.example.app")
/// switch verifier.verify(base64: receiptText) { case .success(let receipt): … case .failure(let why): … }
/// ```
public struct ReceiptVerifier: Sendable {
    /// DER certificates trusted as roots; Apple Inc. Root CA unless configured otherwise.
    public let trustedRoots: [Data]
    /// The self-signed StoreKit Testing certificate (Xcode: Editor › Save Public Certificate), when
    /// Xcode receipts should verify. Anyone with Xcode can sign such receipts: nil in production.
    public let storeKitTestCertificate: Data?
    /// The bundle id receipts must carry (type 2); nil accepts any.
    public let expectedBundleId: String?

    /// Creates a verifier; fails with `INVALID_CERTIFICATE` when a configured certificate is not DER X.509.
    public init(
        trustedRoots: [Data] = [ReceiptVerifier.appleIncRootCertificate],
        storeKitTestCertificate: Data? = nil,
        expectedBundleId: String? = nil
    ) throws(VerificationFailure) {
        guard !trustedRoots.isEmpty || storeKitTestCertificate != nil else {
            throw VerificationFailure(
                .invalidCertificate, "no trusted root configured; pass ReceiptVerifier.appleIncRootCertificate")
        }
        for (index, root) in trustedRoots.enumerated() {
            _ = try ReceiptSignatureCheck.certificate(root, role: "trusted root \(index + 1)")
        }
        if let storeKitTestCertificate {
            _ = try ReceiptSignatureCheck.certificate(storeKitTestCertificate, role: "StoreKit test certificate")
        }
        self.trustedRoots = trustedRoots
        self.storeKitTestCertificate = storeKitTestCertificate
        self.expectedBundleId = expectedBundleId
    }

    /// Verifies a base64 receipt (whitespace tolerated) and returns its decoded payload.
    ///
    /// Failures: unreadable data, a bad signature or an untrusted chain → `VERIFICATION_FAILURE`; a
    /// certificate not valid at the effective date → `INVALID_CERTIFICATE`; another bundle id →
    /// `INVALID_APP_IDENTIFIER`. Never crashes on malformed input.
    public func verify(base64: String, at effectiveDate: EffectiveDate = .receiptCreationDate) -> Result<AppReceipt, VerificationFailure> {
        Result { () throws(VerificationFailure) in
            try verify(container: ReceiptPKCS7(der: ReceiptBase64.decode(base64)), at: effectiveDate)
        }
    }

    /// Verifies a DER/BER receipt (the receipt file's bytes).
    public func verify(der: Data, at effectiveDate: EffectiveDate = .receiptCreationDate) -> Result<AppReceipt, VerificationFailure> {
        Result { () throws(VerificationFailure) in
            try verify(container: ReceiptPKCS7(der: [UInt8](der)), at: effectiveDate)
        }
    }

    /// Reads the payload unverified (for its creation date), then checks chain, OIDs, signature and bundle id.
    private func verify(container: ReceiptPKCS7, at effectiveDate: EffectiveDate) throws(VerificationFailure) -> AppReceipt {
        let receipt = try AppReceipt.parse(container: container)
        let instant = effectiveDate.instant(for: receipt)
        try ReceiptSignatureCheck(verifier: self, container: container, instant: instant, creationDate: receipt.creationDate).run()
        if let expectedBundleId, receipt.bundleId != expectedBundleId {
            throw VerificationFailure(
                .invalidAppIdentifier,
                "the receipt is for bundle id \"\(receipt.bundleId)\", this verifier expects \"\(expectedBundleId)\"")
        }
        return receipt
    }
}
