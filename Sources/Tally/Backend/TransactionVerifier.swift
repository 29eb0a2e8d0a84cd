import TallyCore


/// Checks the signed form (StoreKit's `jwsRepresentation`) of a transaction or a renewal info as the store's own
/// verifier does: the signature, the certificate chain up to the store's root, the app and the environment. The
/// engine owns nothing, and takes no renewal info, whose signed form does not pass, whether it arrives from the
/// backend or is read back from the customer file.
///
/// The sandbox's verifier is TallyVerify over the sandbox's root (`SandboxBackend`); StoreKit's is its own
/// `VerificationResult`.
public protocol TransactionVerifier: Sendable {
    /// The transaction `jwsRepresentation` signs, decoded from its verified payload.
    /// - Throws: ``StoreError/Code/verificationFailed`` naming the check that failed.
    func verifiedTransaction(_ jwsRepresentation: String) throws(StoreError) -> StoreTransaction

    /// The renewal info `jwsRepresentation` signs (StoreKit's `RenewalInfo.jwsRepresentation`, the App Store's
    /// `signedRenewalInfo`), decoded from its verified payload.
    /// - Throws: ``StoreError/Code/verificationFailed`` naming the check that failed.
    func verifiedRenewalInfo(_ jwsRepresentation: String) throws(StoreError) -> RenewalInfo
}
