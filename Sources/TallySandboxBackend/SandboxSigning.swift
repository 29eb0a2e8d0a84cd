import Foundation
import TallyLocking
import Tally
import TallyCore
import TallySandbox
import TallyVerify

/// The sandbox's certificate authority (`ca/` in its directory) as the backend uses it: it signs each transaction
/// and renewal info the backend delivers, the way the App Store does, and verifies signed forms against the sandbox's root through
/// TallyVerify, as Apple's libraries do against Apple's. Loaded on first use (generated then if the directory has
/// none yet), once per process.
final class SandboxSigning: TransactionVerifier {
    private struct Loaded: Sendable {
        var signer: SandboxSigner
        var verifier: SignedDataVerifier
    }

    private let directory: URL
    private let loaded = Locked<Loaded?>(nil)

    init(directory: URL) {
        self.directory = directory
    }

    /// The App Store's `signedTransactionInfo` for `transaction`, signed by the sandbox's leaf key.
    func sign(_ transaction: StoreTransaction) throws(StoreError) -> String {
        let signer = try load().signer
        do { return try signer.signTransaction(transaction) } catch {
            throw StoreError(.backend, "cannot sign transaction \(transaction.transactionId) with the sandbox's "
                + "authority in \(directory.path)/ca: \(error)")
        }
    }

    /// The App Store's `signedRenewalInfo` for `renewalInfo`, signed by the sandbox's leaf key.
    func sign(_ renewalInfo: RenewalInfo) throws(StoreError) -> String {
        let signer = try load().signer
        do { return try signer.signRenewalInfo(renewalInfo) } catch {
            throw StoreError(.backend, "cannot sign the renewal info of chain \(renewalInfo.originalTransactionId) "
                + "with the sandbox's authority in \(directory.path)/ca: \(error)")
        }
    }

    /// The renewal info `jwsRepresentation` signs, when its chain leads to the sandbox's root and its signature
    /// holds.
    func verifiedRenewalInfo(_ jwsRepresentation: String) throws(StoreError) -> RenewalInfo {
        switch try load().verifier.verifyRenewalInfo(jwsRepresentation) {
        case .success(let info): return info
        case .failure(let failure): throw StoreError(.verificationFailed, failure.description)
        }
    }

    /// The transaction `jwsRepresentation` signs, when its chain leads to the sandbox's root and its signature holds.
    func verifiedTransaction(_ jwsRepresentation: String) throws(StoreError) -> StoreTransaction {
        switch try load().verifier.verifyTransaction(jwsRepresentation) {
        case .success(let transaction): return transaction
        case .failure(let failure): throw StoreError(.verificationFailed, failure.description)
        }
    }

    private func load() throws(StoreError) -> Loaded {
        let result: Result<Loaded, StoreError> = loaded.withLock { state in
            if let state { return .success(state) }
            do {
                let authority = try SandboxCertificateAuthority.loadOrGenerate(in: directory, now: Date())
                guard let root = Certificate(der: authority.rootDER) else {
                    return .failure(StoreError(.backend, "the sandbox's root certificate in \(directory.path)/"
                        + "\(SandboxCertificateAuthority.FileName.root) does not parse"))
                }
                // The Sandbox environment always checks signatures (Xcode's would skip them); the engine checks
                // the bundle id against the app's configuration.
                let verifier = try SignedDataVerifier(rootCertificates: [root], bundleId: nil, environment: .sandbox)
                let fresh = Loaded(signer: try authority.signer(), verifier: verifier)
                state = fresh
                return .success(fresh)
            } catch {
                return .failure(StoreError(.backend, "cannot load the sandbox's signing authority from "
                    + "\(directory.path)/ca: \(error)"))
            }
        }
        return try result.get()
    }
}
