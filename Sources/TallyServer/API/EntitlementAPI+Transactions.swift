import Foundation
import TallyCore
import TallyHTTP
import TallyVerify

extension EntitlementAPI {
    /// `POST /v1/customers/{appUserId}/transactions` `{"signedTransaction":"<JWS>"}`.
    func postTransaction(_ appUserId: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let jws = try requiredString(bodyObject(request), "signedTransaction")
        let transaction = try verified(verifier.verifyTransaction(jws), kind: "transaction")
        let now = clock.now()
        let stored = StoredTransaction(transaction: transaction, source: .signedTransaction, signedTransaction: jws)
        let outcome = try record([stored], for: appUserId, now: now)
        // Left with another customer and nothing stored for anyone: 409. A kept copy that carried newer facts
        // to its owner (a refund) was stored, so it is answered 200 with the outcome `kept`.
        if outcome.kept.contains(where: { $0.hasSameBytes(as: transaction.transactionId) }), outcome.ownersUpdated.isEmpty {
            throw .ownedByAnotherCustomer
        }
        let customer = try loadCustomer(appUserId, now: now)
        let posted = JSONWriter.object { writer in
            writer.field("transactionId", transaction.transactionId)
            writer.field("outcome", Self.outcomeName(of: transaction, in: outcome, now: now))
        }
        return APIResponse.json(Self.wrap(("customer", customer), ("transaction", posted)))
    }

    /// Stores verified transactions under the configured ownership policy, then invalidates the cached
    /// state of every customer the write touched (before anything is answered).
    func record(_ transactions: [StoredTransaction], for appUserId: String, now: Date) throws(APIError)
        -> RecordOutcome
    {
        let policy = configuration.ownership
        let outcome = try storeCall { () throws(CustomerStoreError) in
            try noteWrite { () throws(CustomerStoreError) in
                try store.record(transactions, for: appUserId, policy: policy, at: now)
            }
        }
        // The same JWS again changes nothing: its cached state stays valid.
        if outcome.changedAnything { cache.invalidate(appUserId) }
        for transfer in outcome.transfers {
            cache.invalidate(transfer.fromAppUserId)
            cache.invalidate(transfer.toAppUserId)
        }
        for owner in outcome.ownersUpdated { cache.invalidate(owner) }
        return outcome
    }

    /// The value of a verification, counted in the metrics; a failure is 422 with Apple's reason.
    func verified<T>(_ result: Result<T, VerificationFailure>, kind: String) throws(APIError) -> T {
        switch result {
        case .success(let value):
            metrics.recordVerification(kind: kind, result: "valid")
            return value
        case .failure(let failure):
            metrics.recordVerification(kind: kind, result: failure.reason.rawValue)
            throw .verificationFailed(failure.reason.rawValue, failure.detail)
        }
    }

    /// `kept` when it stayed with another customer, `transferred` when its chain moved here, `future` for a
    /// subscription period stored but starting after the server's clock (the state shows it from its
    /// `purchaseDate`), else `inserted`, `updated` or `unchanged`.
    static func outcomeName(of transaction: Transaction, in outcome: RecordOutcome, now: Date) -> String {
        let name = outcomeName(of: transaction, in: outcome)
        let isPeriod = transaction.type == .autoRenewable || transaction.type == .nonRenewing
        if (name == "inserted" || name == "updated"), isPeriod, transaction.purchaseDate > now { return "future" }
        return name
    }

    private static func outcomeName(of transaction: Transaction, in outcome: RecordOutcome) -> String {
        let id = transaction.transactionId, chain = transaction.originalTransactionId
        if outcome.kept.contains(where: { $0.hasSameBytes(as: id) }) { return "kept" }
        if outcome.transfers.contains(where: { $0.originalTransactionId.hasSameBytes(as: chain) }) {
            return "transferred"
        }
        if outcome.inserted.contains(where: { $0.hasSameBytes(as: id) }) { return "inserted" }
        if outcome.updated.contains(where: { $0.hasSameBytes(as: id) }) { return "updated" }
        return "unchanged"
    }
}
