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
        let signature: [UInt8]
        switch parts.rawSignature {
        case .success(let value): signature = value
        case .failure(let failure): return failure
        }
        let valid = parts.signingInput.utf8.withContiguousStorageIfAvailable { input in
            ECDSA.verifyES256(message: UnsafeRawBufferPointer(input), rawSignature: signature, key: key)
        } ?? Array(parts.signingInput.utf8).withUnsafeBytes { input in
            ECDSA.verifyES256(message: input, rawSignature: signature, key: key)
        }
        return valid ? nil : CompactJWS.signatureMismatch
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
            switch JWSHeader.checkedChain(header) {
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
        if x5c == nil, case .success(let chain) = JWSHeader.checkedChain(header) { x5c = chain }
        guard let x5c else {
            return .failure(VerificationFailure(.verificationFailure, "the JWS header could not be read again"))
        }
        if let refusal = cache.refusal(chainKey) { return .failure(refusal) }
        return verifyChainRememberingRefusal(x5c, key: chainKey, at: effective)
            .flatMap(refreshedRevocation)
            .map { entry in
                cache.store(entry, key: chainKey, header: header)
                return entry.leafKey
            }
    }

    /// ``verifyChain(_:at:)``, remembering a refusal when leaf and intermediate are valid at `effective` (so the
    /// refusal is not about dates, which another JWS's `signedDate` could change).
    func verifyChainRememberingRefusal(_ x5c: [String], key: String, at effective: EffectiveDate)
        -> Result<ChainCache.Entry, VerificationFailure>
    {
        let result = verifyChain(x5c, at: effective)
        if case .failure(let failure) = result {
            let certificates = x5c.prefix(2).map { Certificate(base64: $0) }
            let datesHold = certificates.allSatisfy { $0.map { $0.isValid(at: effective.date) } ?? true }
                && trustStore.roots.allSatisfy { $0.isValid(at: effective.date) }
            if datesHold { cache.storeRefusal(failure, key: key) }
        }
        return result
    }

    /// Before the payload is decoded: a header that does not name a three-certificate ES256 chain, or a chain
    /// refused before, fails at once (the cheapest checks first); nil when the full checks must decide.
    func cheapRefusal(_ parts: CompactJWS) -> VerificationFailure? {
        guard !configuration.skipsSignature, cache.lookup(header: parts.header) == nil else { return nil }
        switch JWSHeader.checkedChain(parts.header) {
        case .failure(let failure): return failure
        case .success(let chain): return cache.refusal(ChainCache.key(leaf: chain[0], intermediate: chain[1]))
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
