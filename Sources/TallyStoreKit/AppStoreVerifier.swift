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
    private let verifier: SignedDataVerifier

    /// A verifier for the app `bundleId` in `environment` (`.production` needs the app's Apple id; `.xcode`, for
    /// Xcode's StoreKit testing, skips signatures as Apple's library does).
    /// - Throws: ``StoreError/Code/invalidValue`` when TallyVerify cannot work with the configuration.
    public init(bundleId: String, appAppleId: Int64? = nil, environment: TallyCore.Environment,
                rootCertificates: [Certificate] = [AppleRootCertificates.appleRootCAG3]) throws(StoreError) {
        do {
            verifier = try SignedDataVerifier(rootCertificates: rootCertificates, bundleId: bundleId,
                                              appAppleId: appAppleId, environment: environment)
        } catch {
            throw StoreError(.invalidValue, "cannot verify App Store data: \(error.message)")
        }
    }

    /// The transaction `jwsRepresentation` signs, when it verifies.
    public func verifiedTransaction(_ jwsRepresentation: String) throws(StoreError) -> TallyCore.Transaction {
        switch verifier.verifyTransaction(jwsRepresentation) {
        case .success(let transaction): return transaction
        case .failure(let failure): throw StoreError(.verificationFailed, failure.description)
        }
    }

    /// The renewal info `jwsRepresentation` signs, when it verifies.
    public func verifiedRenewalInfo(_ jwsRepresentation: String) throws(StoreError) -> TallyCore.RenewalInfo {
        switch verifier.verifyRenewalInfo(jwsRepresentation) {
        case .success(let info): return info
        case .failure(let failure): throw StoreError(.verificationFailed, failure.description)
        }
    }
}
#endif
