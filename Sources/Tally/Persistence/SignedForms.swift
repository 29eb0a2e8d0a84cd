import TallyCore


/// The backend's ``TransactionVerifier`` with what it verified in this process (transactions and renewal infos):
/// each distinct signed form costs
/// one verification per launch, however often it is read (snapshot and journal, a transaction delivered again).
/// The cache is keyed by the whole signed form, so nothing unverified can hit it.
final class SignedForms {
    private let verifier: any TransactionVerifier
    private var verified: [String: StoreTransaction] = [:]
    private var verifiedRenewals: [String: RenewalInfo] = [:]

    init(verifier: any TransactionVerifier) {
        self.verifier = verifier
    }

    /// The transaction `jwsRepresentation` signs.
    /// - Throws: ``StoreError/Code/verificationFailed`` when it does not verify.
    func transaction(signedBy jwsRepresentation: String) throws(StoreError) -> StoreTransaction {
        if let known = verified[jwsRepresentation] { return known }
        let transaction: StoreTransaction
        do {
            transaction = try verifier.verifiedTransaction(jwsRepresentation)
        } catch where error.code == .verificationFailed {
            throw error
        } catch {
            throw StoreError(.verificationFailed, error.message)
        }
        verified[jwsRepresentation] = transaction
        return transaction
    }

    /// Why a copy read from the customer file must not count; nil when its signed form verifies and signs
    /// exactly this copy (a valid signature of another transaction, or of an older copy, grants nothing).
    func rejection(of transaction: StoreTransaction, jwsRepresentation: String?) -> String? {
        guard let jwsRepresentation else {
            return "has no signed form (a file written before Tally kept them, or not written by Tally)"
        }
        let signed: StoreTransaction
        do { signed = try self.transaction(signedBy: jwsRepresentation) } catch {
            return "has a signed form that does not verify (\(error.message))"
        }
        guard signed == transaction else {
            return signed.transactionId.hasSameBytes(as: transaction.transactionId)
                ? "differs from its signed form"
                : "carries the signed form of transaction \(signed.transactionId)"
        }
        return nil
    }

    /// The renewal info `jwsRepresentation` signs.
    /// - Throws: ``StoreError/Code/verificationFailed`` when it does not verify.
    func renewalInfo(signedBy jwsRepresentation: String) throws(StoreError) -> RenewalInfo {
        if let known = verifiedRenewals[jwsRepresentation] { return known }
        let info: RenewalInfo
        do {
            info = try verifier.verifiedRenewalInfo(jwsRepresentation)
        } catch where error.code == .verificationFailed {
            throw error
        } catch {
            throw StoreError(.verificationFailed, error.message)
        }
        verifiedRenewals[jwsRepresentation] = info
        return info
    }

    /// Why a renewal info read from the customer file (or sent by the backend) must not count; nil when its signed
    /// form verifies and signs exactly this copy (a valid signature of another chain's, or of an older, renewal
    /// info grants nothing).
    func rejection(of info: RenewalInfo, jwsRepresentation: String?) -> String? {
        guard let jwsRepresentation else {
            return "has no signed form (a file written before Tally kept them, or not written by Tally)"
        }
        let signed: RenewalInfo
        do { signed = try renewalInfo(signedBy: jwsRepresentation) } catch {
            return "has a signed form that does not verify (\(error.message))"
        }
        guard signed == info else {
            return signed.originalTransactionId == info.originalTransactionId
                ? "differs from its signed form"
                : "carries the signed form of the renewal info of chain \(signed.originalTransactionId)"
        }
        return nil
    }
}
