import Foundation
import Synchronization
import Tally
import TallyCore

/// The memory store's signed forms: each one a token the store issued for one copy of a transaction or renewal
/// info, verified by
/// looking it up in what the store issued. Only the store can issue one, so a token written into the customer
/// file by anyone else, or the token of another transaction, verifies to nothing or to that other copy, as a
/// forged or transplanted JWS does with the App Store's verifier (the sandbox backend's tests use real ES256).
final class MemorySignatures: TransactionVerifier {
    private let issued = Mutex<[String: StoreTransaction]>([:])
    private let issuedRenewals = Mutex<[String: RenewalInfo]>([:])

    /// A new signed form for `transaction`.
    func sign(_ transaction: StoreTransaction) -> String {
        issued.withLock { issued in
            let token = "memory-signed.\(issued.count + 1).\(transaction.transactionId)"
            issued[token] = transaction
            return token
        }
    }

    /// A new signed form for `renewalInfo`.
    func sign(_ renewalInfo: RenewalInfo) -> String {
        issuedRenewals.withLock { issued in
            let token = "memory-signed-renewal.\(issued.count + 1).\(renewalInfo.originalTransactionId)"
            issued[token] = renewalInfo
            return token
        }
    }

    /// `renewalInfo` with a new signed form.
    func signed(_ renewalInfo: RenewalInfo) -> SignedRenewalInfo {
        SignedRenewalInfo(renewalInfo: renewalInfo, jwsRepresentation: sign(renewalInfo))
    }

    func verifiedRenewalInfo(_ jwsRepresentation: String) throws(StoreError) -> RenewalInfo {
        guard let info = issuedRenewals.withLock({ $0[jwsRepresentation] }) else {
            throw StoreError(.verificationFailed, "the memory store never signed '\(jwsRepresentation.prefix(40))'")
        }
        return info
    }

    func verifiedTransaction(_ jwsRepresentation: String) throws(StoreError) -> StoreTransaction {
        guard let transaction = issued.withLock({ $0[jwsRepresentation] }) else {
            throw StoreError(.verificationFailed, "the memory store never signed '\(jwsRepresentation.prefix(40))'")
        }
        return transaction
    }
}
