import Foundation
import TallyCore
import TallyHTTP
import TallyStorage
import TallyVerify

extension EntitlementAPI {
    /// `POST /v1/customers/{appUserId}/transactions` `{"signedTransaction":"<JWS>"}`.
    func postTransaction(_ appUserId: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let jws = try tokenField(request, named: "signedTransaction")
        let transaction = try verified(verifier.verifyTransaction(jws), kind: "transaction")
        let now = clock.now()
        let stored = StoredTransaction(transaction: transaction, source: .signedTransaction, signedTransaction: jws)
        let (outcome, customer) = try recordAndEncode([stored], for: appUserId, now: now)
        // Left with another customer and nothing stored for anyone: 409. A kept copy that carried newer facts
        // to its owner (a refund) was stored, so it is answered 200 with the outcome `kept`.
        if outcome.kept.contains(where: { $0.hasSameBytes(as: transaction.transactionId) }), outcome.ownersUpdated.isEmpty {
            // Past the transfer limit: nothing moved; a client may post it again once the hour allows.
            if outcome.transferLimited.contains(where: { $0.hasSameBytes(as: transaction.transactionId) }) {
                let wait = (outcome.transferAllowedAgain ?? now.addingTimeInterval(TransferLimit.window)).timeIntervalSince(now)
                throw .transferLimited(retryAfter: max(1, Int(wait.rounded(.up))),
                                       limit: configuration.transferLimit.perChainPerHour)
            }
            throw .ownedByAnotherCustomer
        }
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
        invalidateCache(after: outcome, for: appUserId)
        return outcome
    }

    /// ``record(_:for:now:)`` for a post that answers with the customer: the state comes from the record the
    /// write itself read inside its transaction (`CustomerStore.recordReadingState(_:for:policy:at:knownFactsVersion:)`),
    /// so no second store read follows the COMMIT; it is encoded and left in the cache (``cacheWrittenState(_:for:ticket:now:)``).
    /// When the cache holds the poster's state and the write changed only the nets since it (a coin purchase), the
    /// store reads only the nets and the cached state is restated with them: nothing read or computed grows with
    /// the customer's history. Returns the outcome and the encoded `customer` object.
    func recordAndEncode(_ transactions: [StoredTransaction], for appUserId: String, now: Date) throws(APIError)
        -> (outcome: RecordOutcome, customer: [UInt8])
    {
        let policy = configuration.ownership
        let ticket = cache.ticket()
        let live = offerings.current()
        let known = cacheMaximumAge > 0 ? cache.lookup(appUserId, now: now) : nil
        let (outcome, record, onlyNets) = try storeCall { () throws(CustomerStoreError) in
            try noteWrite { () throws(CustomerStoreError) in
                try store.recordReadingState(transactions, for: appUserId, policy: policy, at: now,
                                             knownFactsVersion: known?.factsVersion)
            }
        }
        // Everyone else the write touched is invalidated as usual; the poster's own entry is replaced below.
        invalidateCache(after: outcome, for: appUserId, includingPoster: false)
        let entry: StateCache.Entry
        if onlyNets, let known, let body = live.encoding.restate(known.body, record.nets) {
            // The facts, and so the moment the state changes by itself, are the known state's.
            entry = StateCache.Entry(version: record.version, expires: known.expires, body: body,
                                     factsVersion: record.factsVersion)
        } else {
            let whole = onlyNets
                ? try storeCall { () throws(CustomerStoreError) in try store.customerState(appUserId, at: now) }
                : record
            let (body, state) = Self.encodeCustomer(whole, rules: live.rules, now: now)
            entry = StateCache.Entry(
                version: whole.version,
                expires: StateExpiry.next(after: now, state: state, record: whole, maximumAge: cacheMaximumAge),
                body: body, factsVersion: whole.factsVersion)
        }
        cacheWrittenState(entry, for: appUserId, ticket: ticket, now: now)
        // An anonymous id aliased while this post ran: the store wrote for the identified customer.
        if !record.appUserId.hasSameBytes(as: appUserId) { cache.invalidate(record.appUserId) }
        return (outcome, entry.body)
    }

    /// Drops the cached state of every customer `outcome` touched (before anything is answered); the poster's
    /// own only with `includingPoster` (a transfer to the poster drops it in any case).
    private func invalidateCache(after outcome: RecordOutcome, for appUserId: String, includingPoster: Bool = true) {
        // The same JWS again changes nothing: its cached state stays valid.
        if includingPoster, outcome.changedAnything { cache.invalidate(appUserId) }
        for transfer in outcome.transfers {
            cache.invalidate(transfer.fromAppUserId)
            cache.invalidate(transfer.toAppUserId)
        }
        for owner in outcome.ownersUpdated { cache.invalidate(owner) }
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
    static func outcomeName(of transaction: StoreTransaction, in outcome: RecordOutcome, now: Date) -> String {
        let name = outcomeName(of: transaction, in: outcome)
        let isPeriod = transaction.type == .autoRenewable || transaction.type == .nonRenewing
        if (name == "inserted" || name == "updated"), isPeriod, transaction.purchaseDate > now { return "future" }
        return name
    }

    private static func outcomeName(of transaction: StoreTransaction, in outcome: RecordOutcome) -> String {
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
