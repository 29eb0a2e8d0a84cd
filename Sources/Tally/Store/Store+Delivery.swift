import Foundation
import TallyCore


extension Store {
    /// Delivers one transaction in steps: (1) received, (2) its effect written durably to the customer
    /// file, (3) with a server link, posted to the server (left unfinished and retried when the server cannot
    /// take it), (4) finished with the backend, (5) events emitted. A copy already written changes nothing, so a
    /// transaction delivered again (after a crash, or twice) credits once.
    ///
    /// - Parameters:
    ///   - context: the purchase call's context; nil for updates, which take a matching pending purchase's.
    ///   - fromPurchaseCall: true for the answer to ``purchase(_:quantity:appAccountToken:offer:context:)``: it
    ///     completes no pending purchase.
    ///   - announcing: the events that replace the delivery events (purchased, renewed, revoked), emitted even
    ///     when nothing changed: a scheduled subscription change. Nil for the delivery events, which are
    ///     emitted only for a new or changed copy, so an already-owned product is not announced again.
    ///   - customer: with a server link, the customer the purchase call was made for; nil for updates, which
    ///     take a completed pending purchase's (``PendingPurchase/appUserId``), else the link's customer now.
    /// - Returns: the stored copy.
    @discardableResult
    func deliver(_ update: TransactionUpdate, context: PurchaseContext?, fromPurchaseCall: Bool = false,
                 announcing: [StoreEvent]? = nil, postingFor customer: String? = nil) async throws(StoreError)
        -> StoreTransaction {
        var update = update
        let incoming = try verified(update)
        update.transaction = incoming
        let id = incoming.transactionId
        // One delivery of a transaction at a time: a copy arriving while the first waits for the server or the
        // store (the updates stream racing the purchase call) waits, then finds it written and finished.
        let key = UTF8Key(id)
        while inFlight.contains(key) { await deliveryEnded() }
        inFlight.insert(key)
        defer { endDelivery(key) }
        await pause(at: .received, id)
        let known = record.transactions[id]
        let wasFinished = record.finished.contains(id)
        let stored = StoreTransaction.newest(stored: known, incoming: incoming)
        var entries: [JournalEntry] = stored == known
            ? [] : [.transaction(stored, jwsRepresentation: update.jwsRepresentation)]
        if let info = update.renewalInfo,
           let entry = renewalInfoEntry(info, chain: incoming.originalTransactionId, doing: "transaction \(id)") {
            entries.append(entry)
        }
        var context = context
        var customer = customer
        if !fromPurchaseCall, let pending = pendingPurchase(completedBy: update) {
            entries.append(.resolved(pending.id))
            context = context ?? pending.context
            customer = customer ?? pending.appUserId
        }
        prepareForChange()
        try write(entries)
        await pause(at: .written, id)

        // A copy already finished and unchanged was posted (or refused for good) before it was finished: it is
        // only finished again with the store, not posted again (the store may have switched customers since).
        var mayFinish = wasFinished && stored == known
        if !mayFinish {
            mayFinish = await posted(PendingPost(transactionId: id, jwsRepresentation: update.jwsRepresentation,
                                                 appUserId: customer))
        }
        if mayFinish { await finish(id) }

        // A new or changed copy is announced, and so is one written but never finished (a crash came first);
        // a renewal info alone changes only the state.
        if let announcing {
            emit(announcing + stateChangeEvents())
        } else if stored != known || !wasFinished {
            emit(Self.deliveryEvents(known: known, stored: stored, context: context) + stateChangeEvents())
        } else if !entries.isEmpty {
            emit(stateChangeEvents())
        }
        await pause(at: .emitted, id)
        return stored
    }

    /// Suspends until a delivery in ``inFlight`` ends (no polling): the caller then looks again.
    func deliveryEnded() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in deliveryWaiters.append(waiter) }
    }

    /// Ends the delivery of `key` and wakes every task waiting for a delivery to end.
    func endDelivery(_ key: UTF8Key) {
        inFlight.remove(key)
        let waiting = deliveryWaiters
        deliveryWaiters = []
        for waiter in waiting { waiter.resume() }
    }

    /// Finishes a transaction with the backend (its effect written and, with a link, posted), reporting a failure.
    func finish(_ id: String) async {
        do {
            try await backend.finish(transactionId: id)
            if !record.finished.contains(id) { remember(.finished(id)) }
            await pause(at: .finished, id)
        } catch {
            report(StoreDiagnostic(.finishFailed, "finishing transaction \(id) failed (\(error)); its effect is "
                + "written, the store delivers it again and it is credited once"))
        }
    }

    /// The transaction `update` signs: its signed form verified by the backend's verifier, for this app, and for
    /// the transaction the update names.
    /// - Throws: ``StoreError/Code/verificationFailed``.
    func verified(_ update: TransactionUpdate) throws(StoreError) -> StoreTransaction {
        let named = update.transaction.transactionId
        let signed: StoreTransaction
        do { signed = try signedForms.transaction(signedBy: update.jwsRepresentation) } catch {
            throw StoreError(.verificationFailed, "transaction \(named)'s signed form does not verify "
                + "(\(error.message)); it was not delivered")
        }
        guard signed.transactionId.hasSameBytes(as: named) else {
            throw StoreError(.verificationFailed, "transaction \(named) came with the signed form of transaction "
                + "\(signed.transactionId); it was not delivered")
        }
        if let refusal = verificationFailure(signed) { throw refusal }
        return signed
    }

    /// Why a transaction must not be delivered: one signed for another app.
    func verificationFailure(_ transaction: StoreTransaction) -> StoreError? {
        guard let bundleId = transaction.bundleId, bundleId != configuration.bundleId else { return nil }
        return StoreError(.verificationFailed, "transaction \(transaction.transactionId) is for app '\(bundleId)', "
            + "not '\(configuration.bundleId)' (tally.json bundleId); it was not delivered")
    }

    /// What one delivered transaction means: purchased, renewed or revoked.
    static func deliveryEvents(known: StoreTransaction?, stored: StoreTransaction, context: PurchaseContext?) -> [StoreEvent] {
        if stored.isRevoked {
            return known?.isRevoked == true ? [] : [.revoked(stored)]
        }
        if stored.transactionReason == .renewal { return [.renewed(stored)] }
        return [.purchased(stored, context: context)]
    }

    /// The pending purchase an update completes: by the backend's purchase id, else the oldest pending
    /// purchase of the same product and app account token. Renewals and refunds complete none.
    func pendingPurchase(completedBy update: TransactionUpdate) -> PendingPurchase? {
        if let purchaseId = update.purchaseId { return record.pending[purchaseId] }
        let transaction = update.transaction
        guard record.transactions[transaction.transactionId] == nil, !transaction.isRevoked,
              transaction.transactionReason != .renewal else { return nil }
        return pendingPurchases.first { pending in
            pending.productId == transaction.productId
                && pending.appAccountToken?.uuidString.lowercased() == transaction.appAccountToken?.lowercased()
        }
    }

    /// Delivers what an earlier run left unfinished (StoreKit's `Transaction.unfinished`).
    func deliverUnfinished() async {
        let updates: [TransactionUpdate]
        do {
            updates = try await backend.unfinished()
        } catch {
            let failure = StoreError.from(error, doing: "reading unfinished transactions")
            report(StoreDiagnostic(.deliveryFailed, failure.message))
            emit([.failed(productId: nil, reason: failure)])
            return
        }
        for update in updates { await deliverReporting(update) }
    }

    /// Delivers an update from the listener, reporting a failure instead of throwing.
    func deliverReporting(_ update: TransactionUpdate) async {
        do {
            try await deliver(update, context: nil)
        } catch {
            report(StoreDiagnostic(.deliveryFailed, "transaction \(update.transaction.transactionId) was not "
                + "delivered: \(error.message); it stays unfinished with the store"))
            emit([.failed(productId: update.transaction.productId, reason: error)])
        }
    }

    /// Listens to the backend's transaction updates, declines, renewal-info updates and problems until the store
    /// closes or goes away.
    func startListening(to updates: AsyncStream<TransactionUpdate>, declines: AsyncStream<String>,
                        problems: AsyncStream<String>, renewals: AsyncStream<SignedRenewalInfo>) {
        listener = Task.detached { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { [weak self] in
                    for await update in updates {
                        guard let self else { return }
                        await self.deliverReporting(update)
                    }
                }
                group.addTask { [weak self] in
                    for await purchaseId in declines {
                        guard let self else { return }
                        await self.endDeclined([purchaseId])
                    }
                }
                group.addTask { [weak self] in
                    for await renewal in renewals {
                        guard let self else { return }
                        await self.applyRenewalInfoUpdate(renewal)
                    }
                }
                group.addTask { [weak self] in
                    for await problem in problems {
                        guard let self else { return }
                        await self.report(StoreDiagnostic(.backendProblem, problem))
                    }
                }
            }
        }
    }

    /// Calls the delivery observer, if any.
    func pause(at step: DeliveryStep, _ transactionId: String) async {
        if let deliveryObserver { await deliveryObserver(step, transactionId) }
    }
}
