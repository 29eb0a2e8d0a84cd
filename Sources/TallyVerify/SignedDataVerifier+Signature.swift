import Foundation

extension SignedDataVerifier {
    /// Checks header, chain and ES256 signature; nil when all pass.
    func verifySignature(_ parts: CompactJWS, claims: SignedClaims) -> VerificationFailure? {
        let effective = EffectiveDate.resolve(
            configuration.effectiveDate, onlineChecks: configuration.onlineChecks, claims: claims)
        let key: PublicKey
        switch leafKey(header: parts.header, at: effective) {
        case .success(let value): key = value
        case .failure(let failure): return failure
        }
        guard let signature = Base64URL.decode(parts.signature) else {
            return VerificationFailure(.verificationFailure, "the JWS signature is not base64url")
        }
        guard signature.count == 64 else {
            return VerificationFailure(
                .verificationFailure, "an ES256 signature is 64 bytes (r‖s); this one is \(signature.count) bytes")
        }
        let valid = parts.signingInput.utf8.withContiguousStorageIfAvailable { input in
            ECDSA.verifyES256(message: UnsafeRawBufferPointer(input), rawSignature: signature, key: key)
        } ?? Array(parts.signingInput.utf8).withUnsafeBytes { input in
            ECDSA.verifyES256(message: input, rawSignature: signature, key: key)
        }
        return valid ? nil : VerificationFailure(
            .verificationFailure, "the ES256 signature does not match the header and payload for the leaf certificate's key")
    }

    /// The leaf key of the header's chain, from the cache when the chain was verified before and is
    /// valid at `effective`, else after a full verification.
    func leafKey(header: Substring, at effective: EffectiveDate) -> Result<PublicKey, VerificationFailure> {
        let remembered = cache.lookup(header: header)
        var x5c: [String]?
        let chainKey: String
        if let remembered {
            chainKey = remembered.key
        } else {
            switch Self.checkedChain(header) {
            case .success(let chain):
                x5c = chain
                chainKey = ChainCache.key(leaf: chain[0], intermediate: chain[1])
            case .failure(let failure):
                return .failure(failure)
            }
        }
        if let entry = remembered?.entry ?? cache.entry(chainKey), entry.validity.contains(effective.date) {
            switch refreshedRevocation(entry) {
            case .success(let updated):
                if remembered == nil || updated.revocationCheckedUntil != entry.revocationCheckedUntil {
                    cache.store(updated, key: chainKey, header: header)
                }
                return .success(updated.leafKey)
            case .failure(let failure):
                return .failure(failure)
            }
        }
        if x5c == nil, case .success(let chain) = Self.checkedChain(header) { x5c = chain }
        guard let x5c else {
            return .failure(VerificationFailure(.verificationFailure, "the JWS header could not be read again"))
        }
        return verifyChain(x5c, at: effective)
            .flatMap(refreshedRevocation)
            .map { entry in
                cache.store(entry, key: chainKey, header: header)
                return entry.leafKey
            }
    }

    /// Decodes the header and applies Apple's header rules: `x5c` present, `alg` ES256, three certificates.
    static func checkedChain(_ header: Substring) -> Result<[String], VerificationFailure> {
        JWSHeader.decode(header).flatMap { header in
            guard let x5c = header.x5c, !x5c.isEmpty else {
                return .failure(VerificationFailure(.verificationFailure, "the JWS header has no x5c certificate chain"))
            }
            guard header.alg == "ES256" else {
                let alg = header.alg.map { "\"\($0)\"" } ?? "missing"
                return .failure(VerificationFailure(.verificationFailure, "the JWS alg is \(alg); only ES256 is accepted"))
            }
            guard x5c.count == 3 else {
                return .failure(VerificationFailure(
                    .invalidChainLength, "x5c holds \(x5c.count) certificates; exactly 3 (leaf, intermediate, root) are required"))
            }
            return .success(x5c)
        }
    }

    /// Online mode: re-checks revocation when the last check is older than the cache period.
    func refreshedRevocation(_ entry: ChainCache.Entry) -> Result<ChainCache.Entry, VerificationFailure> {
        guard configuration.onlineChecks else { return .success(entry) }
        if let until = entry.revocationCheckedUntil, until > Date() { return .success(entry) }
        return revocation.check(entry.chain, store: trustStore).map { until in
            var updated = entry
            updated.revocationCheckedUntil = until
            return updated
        }
    }
}
