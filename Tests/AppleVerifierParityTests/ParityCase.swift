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

    /// TallyVerify's verifier for this configuration (offline, effective date the payload's `signedDate`).
    func tallyVerifier() throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: VerifierConfiguration(
            rootCertificates: roots.compactMap { Certificate(der: $0) }, bundleId: bundleId, appAppleId: appAppleId,
            environment: environment))
    }

    /// The Apple-path verifier for the same configuration.
    func appleVerifier() throws -> AppStoreVerifier {
        try AppStoreVerifier(bundleId: bundleId, appAppleId: appAppleId, environments: [environment],
                             rootCertificates: roots)
    }

    /// TallyVerify's verdict.
    func tallyVerify() throws -> Verdict {
        Self.verdict(try tallyVerifier().verifyPayload(jws, as: JSONValue.self, kind: kind))
    }

    /// The Apple-path verdict.
    func applePath() throws -> Verdict {
        Self.verdict(try appleVerifier().verify(jws, as: JSONValue.self, kind: kind))
    }

    /// Both verifiers' typed answers for a transaction or renewal info agree (the engine's calls).
    func typedAnswersAgree() throws -> Bool {
        let tally = try tallyVerifier()
        let apple = try appleVerifier()
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
