import Foundation

/// Online revocation checks of a JWS chain by OCSP: the intermediate against the root, the leaf against
/// the intermediate, each at the responder named in its Authority Information Access extension.
/// Answers are cached per certificate for 15 minutes, as Apple's library does.
///
/// `@unchecked Sendable`: the answer cache is only touched while holding `lock`.
final class RevocationChecker: @unchecked Sendable {
    /// How long an answer is reused.
    static let cachePeriod: TimeInterval = 15 * 60

    let policy: RevocationPolicy
    let timeout: TimeInterval
    private let lock = NSLock()
    private var answers: [[UInt8]: Date] = [:]

    init(policy: RevocationPolicy, timeout: TimeInterval = 10) {
        self.policy = policy
        self.timeout = timeout
    }

    /// Checks `chain` (leaf, intermediate, root); on success, until when the result may be reused.
    func check(_ chain: [Certificate], store: TrustStore) -> Result<Date, VerificationFailure> {
        guard chain.count >= 3 else {
            return .failure(VerificationFailure(.verificationFailure, "revocation check needs leaf, intermediate and root"))
        }
        let pairs = [(chain[1], chain[2], "intermediate"), (chain[0], chain[1], "leaf")]
        var until = Date().addingTimeInterval(Self.cachePeriod)
        for (certificate, issuer, role) in pairs {
            switch checkOne(certificate, issuer: issuer, role: role, store: store) {
            case .success(let expiry): until = min(until, expiry)
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(until)
    }

    private func checkOne(_ certificate: Certificate, issuer: Certificate, role: String, store: TrustStore)
        -> Result<Date, VerificationFailure>
    {
        let now = Date()
        if let cached = lock.withLock({ answers[certificate.der] }), cached > now { return .success(cached) }
        let request = OCSPRequest(certificate: certificate, issuer: issuer)
        guard let urlText = certificate.ocspURLs.first, let url = URL(string: urlText) else {
            return .failure(VerificationFailure(
                .verificationFailure, "the \(role) certificate names no OCSP responder, so revocation cannot be checked"))
        }
        guard let body = request.der() else {
            return .failure(VerificationFailure(.verificationFailure, "could not build an OCSP request for the \(role)"))
        }
        let answer = OCSPHTTP.post(body, to: url, timeout: timeout).flatMap {
            request.status(fromResponse: $0, store: store)
        }
        switch answer {
        case .success(.good):
            let until = now.addingTimeInterval(Self.cachePeriod)
            lock.withLock { answers[certificate.der] = until }
            return .success(until)
        case .success(.revoked):
            return .failure(VerificationFailure(.verificationFailure, "the \(role) certificate \(certificate.subject) is revoked (OCSP)"))
        case .success(.unknown):
            return .failure(VerificationFailure(
                .verificationFailure, "the OCSP responder does not know the \(role) certificate \(certificate.subject)"))
        case .failure(let error) where error.retryable:
            if policy == .softFail { return .success(now) }
            return .failure(VerificationFailure(
                .retryableVerificationFailure, "revocation of the \(role) could not be checked: \(error.message)"))
        case .failure(let error):
            return .failure(VerificationFailure(.verificationFailure, "\(role) OCSP: \(error.message)"))
        }
    }
}
