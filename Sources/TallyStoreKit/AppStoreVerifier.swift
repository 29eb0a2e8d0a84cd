import Foundation
import Tally
import TallyCore
import TallySignedData

/// The engine's verifier for App Store JWS (StoreKit's `jwsRepresentation`), on Apple's frameworks alone: CryptoKit
/// checks the ES256 signature and Security the certificate chain up to Apple Root CA - G3 (or the roots given), with
/// the marker-OID, CA and key checks and the bundle id and environment rules of Apple's app-store-server-library
/// (``AppleSignedDataVerifier``). It runs on every transaction and renewal info the engine keeps, and on each read
/// back from the customer file at launch, where StoreKit's own verdict is no longer at hand.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)  // SecTrustCopyCertificateChain
public final class AppStoreVerifier: TransactionVerifier {
    private let verifiers: [AppleSignedDataVerifier]

    /// A verifier for the app `bundleId`, accepting data signed for any of `environments`, tried in order. An App
    /// Store build passes `[.production, .sandbox]` (App Review and TestFlight buy in the Sandbox with the
    /// production build, as Apple advises servers to accept); `.production` needs the app's Apple id; `[.xcode]`,
    /// for Xcode's StoreKit testing, skips signatures as Apple's library does. `rootCertificates` are DER.
    /// - Throws: ``StoreError/Code/invalidValue`` when `environments` is empty, `.production` has no app Apple id,
    ///   or a root is not a DER certificate.
    public init(bundleId: String, appAppleId: Int64? = nil, environments: [TallyCore.StoreEnvironment],
                rootCertificates: [Data] = [AppleSignedData.appleRootCAG3DER]) throws(StoreError) {
        guard !environments.isEmpty else {
            throw StoreError(.invalidValue, "AppStoreVerifier needs at least one environment to accept")
        }
        if environments.contains(.production), appAppleId == nil {
            throw StoreError(.invalidValue, "cannot verify App Store data for Production: appAppleId is required")
        }
        if !environments.allSatisfy(AppleSignedData.skipsSignature), rootCertificates.isEmpty {
            throw StoreError(.invalidValue, "AppStoreVerifier needs at least one trusted root certificate")
        }
        if let bad = rootCertificates.firstIndex(where: { !AppleCertificateChain.isCertificate($0) }) {
            throw StoreError(.invalidValue, "rootCertificates[\(bad)] is not a DER certificate")
        }
        verifiers = environments.map { environment in
            AppleSignedDataVerifier(
                rules: ClaimsRules(bundleId: bundleId, appAppleId: appAppleId, environment: environment),
                roots: rootCertificates)
        }
    }

    /// The transaction `jwsRepresentation` signs, when it verifies for one of the environments.
    public func verifiedTransaction(_ jwsRepresentation: String) throws(StoreError) -> TallyCore.StoreTransaction {
        try first { $0.verify(jwsRepresentation, as: TallyCore.StoreTransaction.self, kind: .transaction) }
    }

    /// The renewal info `jwsRepresentation` signs, when it verifies for one of the environments.
    public func verifiedRenewalInfo(_ jwsRepresentation: String) throws(StoreError) -> TallyCore.RenewalInfo {
        try first { $0.verify(jwsRepresentation, as: TallyCore.RenewalInfo.self, kind: .renewalInfo) }
    }

    /// `jws` verified as `kind` and decoded into `Model` by the first environment it verifies for, else the last
    /// environment's failure (for tests that compare verdicts with TallyVerify's).
    package func verify<Model: Decodable>(_ jws: String, as model: Model.Type, kind: SignedPayloadKind)
        -> Result<Model, VerificationFailure>
    {
        var last: Result<Model, VerificationFailure> = .failure(VerificationFailure(.verificationFailure, "no environment"))
        for verifier in verifiers {
            last = verifier.verify(jws, as: model, kind: kind)
            if case .success = last { return last }
        }
        return last
    }

    /// The first environment's success, or every environment's failure in one message.
    private func first<Value>(
        _ verify: (AppleSignedDataVerifier) -> Result<Value, VerificationFailure>
    ) throws(StoreError) -> Value {
        var failures: [String] = []
        for verifier in verifiers {
            switch verify(verifier) {
            case .success(let value): return value
            case .failure(let failure): failures.append("\(verifier.rules.environment): \(failure.description)")
            }
        }
        throw StoreError(.verificationFailed, failures.joined(separator: "; "))
    }
}
