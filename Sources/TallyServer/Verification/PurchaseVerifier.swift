import Foundation
import TallyCore
import TallyVerify

/// Verifies what apps post: signed transactions with one ``SignedDataVerifier`` per accepted environment
/// (picked by the payload's `environment`, then verified in full), and legacy receipts.
struct PurchaseVerifier: Sendable {
    private let verifiers: [StoreEnvironment: SignedDataVerifier]
    let receipts: ReceiptVerifier
    let settings: VerificationSettings
    let catalog: Catalog

    init(settings: VerificationSettings, catalog: Catalog) throws(ServerConfigurationError) {
        var verifiers: [StoreEnvironment: SignedDataVerifier] = [:]
        var problems: [ServerConfigurationError.Problem] = []
        for environment in settings.environments {
            do {
                verifiers[environment] = try SignedDataVerifier(configuration: VerifierConfiguration(
                    rootCertificates: settings.roots, bundleId: settings.bundleId, appAppleId: settings.appAppleId,
                    environment: environment, onlineChecks: settings.onlineChecks))
            } catch {
                problems.append(.init("verification", "\(environment.rawValue): \(error.message)"))
            }
        }
        let receipts: ReceiptVerifier?
        do {
            receipts = try ReceiptVerifier(trustedRoots: settings.receiptRoots.map { Data($0.der) },
                                           expectedBundleId: settings.bundleId)
        } catch {
            problems.append(.init("verification.receiptRoots", error.detail))
            receipts = nil
        }
        guard problems.isEmpty, let receipts else {
            throw ServerConfigurationError(fileName: "the server configuration", problems: problems)
        }
        self.receipts = receipts
        self.verifiers = verifiers
        self.settings = settings
        self.catalog = catalog
    }

    /// Verifies a `signedTransaction` fully with the verifier of the environment its payload names.
    func verifyTransaction(_ jws: String) -> Result<StoreTransaction, VerificationFailure> {
        // One accepted environment: its verifier judges the environment claim itself, no need to peek.
        if verifiers.count == 1, let only = verifiers.values.first { return only.verifyTransaction(jws) }
        let environment = Self.claimedEnvironment(jws)
        if let environment, let verifier = verifiers[environment] {
            return verifier.verifyTransaction(jws)
        }
        if let environment {
            let accepted = settings.environments.map(\.rawValue).joined(separator: ", ")
            return .failure(VerificationFailure(
                .invalidEnvironment, "the transaction is from \(environment.rawValue); this server accepts \(accepted)"))
        }
        // No readable environment: the first verifier reports what is wrong with the JWS.
        guard let first = settings.environments.first, let verifier = verifiers[first] else {
            return .failure(VerificationFailure(.verificationFailure, "no environment is accepted"))
        }
        return verifier.verifyTransaction(jws)
    }

    /// The verifier when exactly one environment is accepted (it judges the environment claim itself).
    var onlyVerifier: SignedDataVerifier? { verifiers.count == 1 ? verifiers.values.first : nil }

    /// The verifier of an accepted environment.
    func verifier(for environment: StoreEnvironment) -> SignedDataVerifier? { verifiers[environment] }

    /// The payload's `environment` claim, read without verifying (only to pick the verifier).
    static func claimedEnvironment(_ jws: String) -> StoreEnvironment? {
        let bytes = jws.utf8
        guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
              let second = bytes[bytes.index(after: first)...].firstIndex(of: UInt8(ascii: ".")),
              let payload = Base64URL.decode(Substring(bytes[bytes.index(after: first)..<second])), !JSONDepthScan.exceeds(payload, limit: 64),
              let claim = try? JSONDecoder().decode(EnvironmentClaim.self, from: Data(payload)),
              let name = claim.environment else { return nil }
        return StoreEnvironment(rawValue: name)
    }

    /// The one claim read before verifying; Foundation skips the rest of the payload.
    private struct EnvironmentClaim: Decodable {
        let environment: String?
    }
}
