import Foundation
import TallyCore


extension Store {
    /// Logs in (or out): from now on the store speaks for `appUserId` on the server — purchases are posted for
    /// it and carry its `appAccountToken`, ``state`` is its state — and this device's App Store purchases are
    /// restored and posted for it, so the server's `ownership` policy decides where they belong (the general form of ``logIn(_:)``, which first
    /// aliases an anonymous customer so its purchases follow under every policy): under
    /// `transfer` a purchase owned by the previous customer moves to the new one (``CustomerSwitch/transferred``),
    /// under `keep` it stays (``CustomerSwitch/kept``; the new customer does not get it). The outcome is
    /// returned and emitted as ``StoreEvent/customerSwitched(_:)``. To log out, ``logOut()``.
    ///
    /// The id is kept in the data directory: a ``ServerLink`` without one speaks for it at the next launch.
    ///
    /// - Parameters:
    ///   - appUserId: the new customer's id on the server (not empty).
    ///   - appAccountToken: the app's own token for its purchases (no authority on the server unless the server
    ///     minted it); by default the token the server mints for the customer (see ``ServerLink/appAccountToken``).
    /// - Throws: ``StoreError`` — `invalidValue` without a server link or for an empty id; `purchaseInProgress`,
    ///   and nothing changes, while a ``purchase(_:quantity:appAccountToken:offer:context:)-(String,_,_,_,_)`` call or another switch is
    ///   under way; `networkError`, and nothing changes, while a purchase of the current customer waits to be
    ///   posted (posting it for the new customer would credit the wrong one); the restore's errors
    ///   (`networkError`, `backend`, `cancelled`, `storage`), after which the store already speaks for the new
    ///   customer (call ``restore()`` again).
    @discardableResult
    public func switchCustomer(to appUserId: String, appAccountToken: UUID? = nil) async throws(StoreError)
        -> CustomerSwitch
    {
        guard let link = serverLink, let client = server else {
            throw StoreError(.invalidValue, "switchCustomer(to:) needs a server link: without one the store has "
                + "no customer id")
        }
        guard !appUserId.isEmpty else { throw StoreError(.invalidValue, "the new appUserId is empty") }
        try refuseSwitchWhileBusy(to: appUserId)
        isSwitching = true
        defer { isSwitching = false }
        if !pendingPosts.isEmpty { _ = await postPending() }
        // A delivery under way posts for the current customer: let it end (posted, or left waiting) first.
        while !inFlight.isEmpty { await deliveryEnded() }
        // From here to the switch nothing suspends, so no post or purchase of the current customer can start in
        // between.
        if let openPurchase = openPurchases.first { throw purchaseInProgress(openPurchase, to: appUserId) }
        if let waiting = pendingPosts.first {
            throw StoreError(.networkError, "transaction \(waiting.transactionId) of customer "
                + "'\(waiting.appUserId ?? link.appUserId)' waits to be posted to the server, which cannot be "
                + "reached; switching now would credit it to '\(appUserId)'. Try again once the server answers")
        }
        let previous = link.appUserId
        var switched = link
        switched.appUserId = appUserId
        switched.appAccountToken = appAccountToken
        prepareForChange()
        serverLink = switched
        server = client.with(switched)
        keepCustomerId(appUserId)
        loadSavedServerState()
        if serverState == nil { stateSource = .localCache }
        let restored = try await restoreWritten(announcingState: false)
        let restoredPosts = await postRestored(restored)
        await readServerState()
        let outcome = CustomerSwitch(previousAppUserId: previous, appUserId: appUserId, posted: restoredPosts.posted,
                                     notPosted: restoredPosts.notPosted, refused: restoredPosts.refused)
        emit([.customerSwitched(outcome)] + stateChangeEvents())
        return outcome
    }

    /// Refuses a switch while a purchase call or another switch is under way.
    func refuseSwitchWhileBusy(to appUserId: String) throws(StoreError) {
        if isSwitching {
            throw StoreError(.purchaseInProgress, "another switchCustomer(to:) is under way; switch to "
                + "'\(appUserId)' once it returned")
        }
        if let openPurchase = openPurchases.first { throw purchaseInProgress(openPurchase, to: appUserId) }
    }

    /// The error of a switch refused while a purchase call is open.
    func purchaseInProgress(_ productId: String, to appUserId: String) -> StoreError {
        StoreError(.purchaseInProgress, "a purchase of \(productId) for customer "
            + "'\(serverLink?.appUserId ?? "")' is under way (waiting on the App Store); switching now would post it "
            + "for '\(appUserId)'. Switch once purchase(_:) returned")
    }

    /// Posts restored transactions for the link's customer (they are finished with the store already): each
    /// the server answered with its outcome (nil when it named none this engine knows) — a 409
    /// `owned_by_another_customer` is ``ServerOutcome/kept`` —, those it could not be reached for (posted again
    /// with back-off), and those it refused for good (reported).
    func postRestored(_ restored: [(transaction: StoreTransaction, jwsRepresentation: String)]) async
        -> (posted: [CustomerSwitch.Posted], notPosted: [StoreTransaction], refused: [CustomerSwitch.Refused])
    {
        guard let server else { return ([], [], []) }
        var posted: [CustomerSwitch.Posted] = [], notPosted: [StoreTransaction] = [], refused: [CustomerSwitch.Refused] = []
        let customerId = server.link.appUserId
        for (transaction, jws) in restored {
            let id = transaction.transactionId
            let answer = await server.post(signedTransaction: jws)
            switch answer {
            case .accepted(let customer, let outcome, let signed):
                adoptServerState(customer, answer: signed, of: customerId)
                posted.append(CustomerSwitch.Posted(transaction: transaction, outcome: outcome))
                if outcome == nil {
                    report(StoreDiagnostic(.unknownServerOutcome, "the server stored restored transaction \(id) but "
                        + "its answer names no outcome this engine knows; its CustomerSwitch.Posted.outcome is nil"))
                }
            case .refused(409, "owned_by_another_customer", _):
                posted.append(CustomerSwitch.Posted(transaction: transaction, outcome: .kept))
            case .refused(let status, let code, let message):
                report(StoreDiagnostic(.serverRefused, "the server refused restored transaction \(id) (\(status) "
                    + "\(code): \(message))"))
                emit([.serverRefused(transactionId: id, status: status, code: code, message: message)])
                refused.append(CustomerSwitch.Refused(transaction: transaction, status: status, code: code,
                                                      message: message))
            case .unavailable(let problem):
                if isCurrentCustomer(customerId) { serverProblem = problem }
                keepForRetry(.serverUnavailable, "\(problem)")
            case .unverified(let reason):
                keepForRetry(.serverAnswerUnverified, reason)
            }
            /// Not acknowledged: reported, kept in ``pendingPosts`` and posted again with back-off.
            func keepForRetry(_ kind: StoreDiagnostic.Kind, _ reason: String) {
                report(StoreDiagnostic(kind, "restored transaction \(id) could not be posted to the "
                    + "server (\(reason)); it is posted again with back-off (after a restart, by restore())"))
                notPosted.append(transaction)
                if !pendingPosts.contains(where: { $0.transactionId.hasSameBytes(as: id) }) {
                    pendingPosts.append(PendingPost(transactionId: id, jwsRepresentation: jws, appUserId: customerId,
                                                    restored: true))
                }
                scheduleRetry()
            }
        }
        return (posted, notPosted, refused)
    }
}
