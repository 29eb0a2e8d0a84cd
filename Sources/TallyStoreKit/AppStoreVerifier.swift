#if canImport(StoreKit)
import Foundation
import Tally
import TallyCore
import TallyVerify

/// The engine's verifier for App Store JWS (StoreKit's `jwsRepresentation`): TallyVerify checks the signature and
/// the certificate chain up to Apple Root CA - G3 (or the roots given), the bundle id and the environment, as
/// Apple's app-store-server-library does. It runs on every transaction and renewal info the engine keeps, and on
/// each read back from the customer file at launch, where StoreKit's own verdict is no longer at hand.
public final class AppStoreVerifier: TransactionVerifier {
    private let verifiers: [SignedDataVerifier]

    /// A verifier for the app `bundleId`, accepting data signed for any of `environments`, tried in order. An App
    /// Store build passes `[.production, .sandbox]` (App Review and TestFlight buy in the Sandbox with the
    /// production build, as Apple advises servers to accept); `.production` needs the app's Apple id; `[.xcode]`,
    /// for Xcode's StoreKit testing, skips signatures as Apple's library does.
    /// - Throws: ``StoreError/Code/invalidValue`` when `environments` is empty or TallyVerify cannot work with one.
    public init(bundleId: String, appAppleId: Int64? = nil, environments: [TallyCore.StoreEnvironment],
                rootCertificates: [Certificate] = [AppleRootCertificates.appleRootCAG3]) throws(StoreError) {
        guard !environments.isEmpty else {
            throw StoreError(.invalidValue, "AppStoreVerifier needs at least one environment to accept")
        }
        var verifiers: [SignedDataVerifier] = []
        for environment in environments {
            do {
                verifiers.append(try SignedDataVerifier(rootCertificates: rootCertificates, bundleId: bundleId,
                                                        appAppleId: appAppleId, environment: environment))
            } catch {
                throw StoreError(.invalidValue, "cannot verify App Store data for \(environment): \(error.message)")
            }
        }
        self.verifiers = verifiers
    }

    /// The transaction `jwsRepresentation` signs, when it verifies for one of the environments.
    public func verifiedTransaction(_ jwsRepresentation: String) throws(StoreError) -> TallyCore.StoreTransaction {
        try first { $0.verifyTransaction(jwsRepresentation) }
    }

    /// The renewal info `jwsRepresentation` signs, when it verifies for one of the environments.
    public func verifiedRenewalInfo(_ jwsRepresentation: String) throws(StoreError) -> TallyCore.RenewalInfo {
        try first { $0.verifyRenewalInfo(jwsRepresentation) }
    }

    /// The first environment's success, or every environment's failure in one message.
    private func first<Value>(
        _ verify: (SignedDataVerifier) -> Result<Value, VerificationFailure>
    ) throws(StoreError) -> Value {
        var failures: [String] = []
        for verifier in verifiers {
            switch verify(verifier) {
            case .success(let value): return value
            case .failure(let failure):
                failures.append("\(verifier.configuration.environment): \(failure.description)")
            }
        }
        throw StoreError(.verificationFailed, failures.joined(separator: "; "))
    }
}
#endif
