import Foundation
import TallyLocking
import Tally
import TallyCore

/// The signed forms of an ``InMemoryBackend``: each one a token the store issued for one copy of a transaction or
/// renewal info, verified by looking it up in what the store issued. Only the store can issue one, so a token
/// written into the engine's customer file by anyone else, or the token of another transaction, verifies to
/// nothing or to that other copy, as a forged or transplanted JWS does with the App Store's verifier. Not
/// cryptography: a test double of the engine's `TransactionVerifier`.
public final class InMemorySignatures: TransactionVerifier {
    private let issued = Locked<[String: StoreTransaction]>([:])
    private let issuedRenewals = Locked<[String: RenewalInfo]>([:])

    /// No signed form issued yet.
    public init() {}

    /// A new signed form for `transaction`.
    public func sign(_ transaction: StoreTransaction) -> String {
        issued.withLock { issued in
            let token = "memory-signed.\(issued.count + 1).\(transaction.transactionId)"
            issued[token] = transaction
            return token
        }
    }

    /// A new signed form for `renewalInfo`.
    public func sign(_ renewalInfo: RenewalInfo) -> String {
        issuedRenewals.withLock { issued in
            let token = "memory-signed-renewal.\(issued.count + 1).\(renewalInfo.originalTransactionId)"
            issued[token] = renewalInfo
            return token
        }
    }

    /// `renewalInfo` with a new signed form.
    public func signed(_ renewalInfo: RenewalInfo) -> SignedRenewalInfo {
        SignedRenewalInfo(renewalInfo: renewalInfo, jwsRepresentation: sign(renewalInfo))
    }

    /// The renewal info this store signed as `jwsRepresentation`; throws `verificationFailed` for any other.
    public func verifiedRenewalInfo(_ jwsRepresentation: String) throws(StoreError) -> RenewalInfo {
        guard let info = issuedRenewals.withLock({ $0[jwsRepresentation] }) else {
            throw StoreError(.verificationFailed, "the memory store never signed '\(jwsRepresentation.prefix(40))'")
        }
        return info
    }

    /// The transaction this store signed as `jwsRepresentation`; throws `verificationFailed` for any other.
    public func verifiedTransaction(_ jwsRepresentation: String) throws(StoreError) -> StoreTransaction {
        guard let transaction = issued.withLock({ $0[jwsRepresentation] }) else {
            throw StoreError(.verificationFailed, "the memory store never signed '\(jwsRepresentation.prefix(40))'")
        }
        return transaction
    }
}
