import Foundation
import TallyCore
import TallyCrypto
import TallySignedData
@testable import TallyStoreKit
import TallyVerify

/// One JWS and one configuration, judged by both verifiers: TallyVerify's `SignedDataVerifier` (OpenSSL) and
/// TallyStoreKit's `AppStoreVerifier` (CryptoKit and Security; on Linux their stand-ins).
struct ParityCase: CustomStringConvertible, Sendable {
    var name: String
    var jws: String
    var kind: SignedPayloadKind
    var environment: StoreEnvironment
    var bundleId: String
    var appAppleId: Int64? = 1234
    var roots: [Data]

    var description: String { "\(name) as \(kind.rawValue) in \(environment.rawValue) for \(bundleId)" }

    /// A verdict: the raw payload when accepted, the failure's reason when refused.
    enum Verdict: Equatable, CustomStringConvertible {
        case accepted(JSONValue)
        case refused(VerificationFailure.Reason, String)

        var isAccepted: Bool { if case .accepted = self { true } else { false } }

        static func == (a: Verdict, b: Verdict) -> Bool {
            switch (a, b) {
            case (.accepted(let x), .accepted(let y)): x == y
            case (.refused(let x, _), .refused(let y, _)): x == y
            default: false
            }
        }

        var description: String {
            switch self {
            case .accepted: "accepted"
            case .refused(let reason, let detail): "refused \(reason.rawValue): \(detail)"
            }
        }
    }

    static func verdict(_ result: Result<JSONValue, VerificationFailure>) -> Verdict {
        switch result {
        case .success(let payload): .accepted(payload)
        case .failure(let failure): .refused(failure.reason, failure.detail)
        }
    }

    /// TallyVerify's verdict, with the same configuration (offline, effective date the payload's `signedDate`).
    func tallyVerify() throws -> Verdict {
        let verifier = try SignedDataVerifier(configuration: VerifierConfiguration(
            rootCertificates: roots.compactMap { Certificate(der: $0) }, bundleId: bundleId, appAppleId: appAppleId,
            environment: environment))
        return Self.verdict(verifier.verifyPayload(jws, as: JSONValue.self, kind: kind))
    }

    /// The Apple-path verdict.
    func applePath() throws -> Verdict {
        let verifier = try AppStoreVerifier(bundleId: bundleId, appAppleId: appAppleId, environments: [environment],
                                            rootCertificates: roots)
        return Self.verdict(verifier.verify(jws, as: JSONValue.self, kind: kind))
    }

    /// Both verifiers' typed answers for a transaction or renewal info agree (the engine's calls).
    func typedAnswersAgree() throws -> Bool {
        let tally = try SignedDataVerifier(configuration: VerifierConfiguration(
            rootCertificates: roots.compactMap { Certificate(der: $0) }, bundleId: bundleId, appAppleId: appAppleId,
            environment: environment))
        let apple = try AppStoreVerifier(bundleId: bundleId, appAppleId: appAppleId, environments: [environment],
                                         rootCertificates: roots)
        switch kind {
        case .transaction:
            return (try? tally.verifyTransaction(jws).get()) == (try? apple.verifiedTransaction(jws))
        case .renewalInfo:
            return (try? tally.verifyRenewalInfo(jws).get()) == (try? apple.verifiedRenewalInfo(jws))
        default:
            return true
        }
    }
}
