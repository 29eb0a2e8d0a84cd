import TallyCore

extension SignedDataVerifier {
    /// Apple's payload checks for `kind` with this verifier's app and environment (``ClaimsRules``); nil when they
    /// pass.
    func checkClaims(_ claims: SignedClaims, kind: SignedPayloadKind) -> VerificationFailure? {
        ClaimsRules(bundleId: configuration.bundleId, appAppleId: configuration.appAppleId,
                    environment: configuration.environment).check(claims, kind: kind)
    }
}
