import Foundation
import TallyCore


extension Store {
    /// Asks the backend for the current renewal info of every subscription chain (StoreKit's
    /// `Product.SubscriptionInfo.status`), keeps those whose signed form verifies (any other is reported as
    /// ``StoreDiagnostic/Kind/unverifiedRenewalInfo`` and grants nothing), durably records what differs from the
    /// customer file (one `fdatasync`
    /// for the batch; nothing written when nothing changed), and returns the state as ``refresh()`` does,
    /// emitting the events of what changed since the state was last looked at (``StoreEvent/billingRetry(_:)``,
    /// ``StoreEvent/gracePeriod(_:)``, ``StoreEvent/expired(_:)``, ``StoreEvent/entitlementsChanged(gained:lost:)``
    /// …); the first look of a launch only sets the state compared with.
    ///
    /// Where the backend pushes renewal-info changes (``StoreBackend/renewalInfoUpdates()``: StoreKit's
    /// `Product.SubscriptionInfo.Status.updates` on iOS 17 / macOS 14 and later, the sandbox) they reach the engine
    /// without this call. Call it when showing subscriptions on older systems: there auto-renew turned off, a
    /// scheduled downgrade, billing retry or grace reach the app this way, not with a transaction.
    /// - Throws: ``StoreError`` (`networkError`, `backend`, `storage`); the customer file is unchanged then.
    @discardableResult
    public func refreshSubscriptionStatus() async throws(StoreError) -> CustomerState {
        let infos: [SignedRenewalInfo]
        do {
            infos = try await backend.subscriptionStatuses()
        } catch {
            throw StoreError.from(error, doing: "reading the subscription status")
        }
        var latest: [String: SignedRenewalInfo] = [:]
        for info in infos { latest[info.renewalInfo.originalTransactionId] = info }
        let entries: [JournalEntry] = latest.keys.sorted().compactMap { id in
            latest[id].flatMap { renewalInfoEntry($0, chain: id, doing: "subscription status") }
        }
        // Events compare with the state this process looked at last; the first look sets it and emits nothing
        // (the customer file's renewal info may be old, and the state computed from it is not what the app saw).
        if lastState != nil { prepareForChange() }
        try write(entries)
        return await refresh()
    }

    /// Applies one renewal info the backend pushed (``StoreBackend/renewalInfoUpdates()``) as
    /// ``refreshSubscriptionStatus()`` applies each it reads: only one whose signed form verifies as that chain's
    /// counts (any other is reported), it is written durably when it differs from the one held, and the events of
    /// what changed are emitted. A failed write is reported; the next push or refresh brings it again.
    func applyRenewalInfoUpdate(_ signed: SignedRenewalInfo) {
        guard !isClosed else { return }
        let chain = signed.renewalInfo.originalTransactionId
        guard let entry = renewalInfoEntry(signed, chain: chain, doing: "renewal info update") else { return }
        prepareForChange()
        do {
            try write([entry])
        } catch {
            report(StoreDiagnostic(.deliveryFailed, "recording the renewal info update of chain \(chain) failed: "
                + "\(error.message); the next update or refreshSubscriptionStatus() brings it again"))
            return
        }
        emit(stateChangeEvents())
    }
}
