import Foundation

extension SignedDataVerifier {
    /// Apple's `ChainVerifier` on its own: checks an `x5c` list (standard base64 DER, leaf first,
    /// exactly three) against the configured roots at `date` — OpenSSL chain, marker OIDs,
    /// intermediate CA, P-256 leaf key, and revocation when online — and returns the leaf key.
    public func verifyCertificateChain(_ x5c: [String], at date: Date) -> Result<PublicKey, VerificationFailure> {
        guard x5c.count == 3 else {
            return .failure(JWSHeader.chainLength(x5c.count))
        }
        let effective = EffectiveDate(date: date, source: "given date")
        return verifyChain(x5c, at: effective).flatMap(refreshedRevocation).map(\.leafKey)
    }

    /// Number of chains in the verified-chain cache.
    public var cachedChainCount: Int { cache.count }

    /// Number of chains remembered as refused at every date (forged, untrusted), refused again without parsing.
    public var rememberedRefusalCount: Int { cache.refusalCount }
}
