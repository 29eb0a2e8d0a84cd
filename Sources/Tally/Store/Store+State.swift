import Foundation
import TallyCore


extension Store {
    /// What the customer owns now: with a ``ServerLink``, the server's customer state as last read (see
    /// ``stateSource``); without one, ``localState``; with one while the server cannot be reached and nothing of
    /// the server's is kept for the customer, ``customerCacheState`` (``StateSource/localCache``).
    public var state: CustomerState {
        switch (stateSource, serverState) {
        case (.server, let server?): server
        case (.savedServerState, let saved?): offlineState(from: saved)
        default: serverLink == nil ? localState : customerCacheState
        }
    }

    /// With a ``ServerLink``, the ownership rules over the customer file's transactions that carry the link
    /// customer's token (``ServerLink/appAccountToken``, else the one the server minted; compared lowercased) or
    /// were delivered for the customer and wait to be posted: what this device bought for this customer. Another
    /// customer's purchases on this device (before a ``switchCustomer(to:appAccountToken:)``) and other purchases
    /// without the customer's token are left out until the server says whose they are; so are local spends (with a
    /// link, spends are the app backend's). Without a link, ``localState``.
    public var customerCacheState: CustomerState {
        CustomerState(catalog: catalog, configuration: configuration, history: customerHistory, at: clock.now())
    }

    /// The customer file's history as ``customerCacheState`` reads it.
    var customerHistory: PurchaseHistory {
        guard let link = serverLink else { return record.history }
        let token = knownAccountToken?.uuidString.lowercased()
        let waiting = Set(pendingPosts.filter {
            !$0.restored && ($0.appUserId ?? link.appUserId).hasSameBytes(as: link.appUserId)
        }.map { UTF8Key($0.transactionId) })
        var history = record.history
        history.transactions.removeAll { transaction in
            if let token, transaction.appAccountToken?.lowercased().hasSameBytes(as: token) == true { return false }
            return !waiting.contains(UTF8Key(transaction.transactionId))
        }
        history.spends = []
        return history
    }

    /// The server's state as kept (saved, or read before a post failed), shown while the server cannot take
    /// what waits: without the entitlements that expired since, with what this device's transactions not posted
    /// yet add (``CustomerState/addingUnposted(before:after:)``).
    func offlineState(from saved: CustomerState) -> CustomerState {
        let now = clock.now()
        let shown = SavedServerState.shown(saved, at: now)
        guard !pendingPosts.isEmpty else { return shown }
        let waiting = Set(pendingPosts.map { UTF8Key($0.transactionId) })
        var posted = customerHistory
        posted.transactions.removeAll { waiting.contains(UTF8Key($0.transactionId)) }
        let before = CustomerState(catalog: catalog, configuration: configuration, history: posted, at: now)
        return shown.addingUnposted(before: before, after: customerCacheState)
    }

    /// The ownership rules over the customer file at the backend's clock: what this device delivered, restored
    /// and spent, for any customer. Without a server link it is ``state``; with one, see
    /// ``customerCacheState``.
    public var localState: CustomerState {
        CustomerState(catalog: catalog, configuration: configuration, history: record.history, at: clock.now())
    }

    /// Whether a feature of `tally.json` is active now.
    public func isEntitled(_ feature: String) -> Bool {
        state.isEntitled(feature)
    }

    /// The spendable balance of a currency now (zero when in debt; see `CustomerState.debts`).
    public func balance(_ currency: String) -> Decimal {
        state.balance(currency)
    }

    /// Recomputes the state at the backend's clock and emits what changed since the last look:
    /// ``StoreEvent/expired(_:)``, ``StoreEvent/billingRetry(_:)``, ``StoreEvent/gracePeriod(_:)``,
    /// ``StoreEvent/entitlementsChanged(gained:lost:)``, ``StoreEvent/balanceChanged(currency:balance:)``.
    /// Time alone (an expiry date passing, a grace period running out) changes the state without a transaction,
    /// so call it when the app comes to the foreground or shows what the customer owns.
    ///
    /// With a ``ServerLink`` it first posts what waits for the server, then reads the server's state
    /// (`GET /v1/customers/{appUserId}`): a purchase made on another device shows here. When the server
    /// cannot be reached, the state is the server's last one as saved (``StateSource/savedServerState``), or
    /// ``localState`` (``StateSource/localCache``) when none is saved or a purchase waits to be posted. Every
    /// placement asked with ``offerings(placement:)`` is asked again (``ServerLink/offeringsRefreshInterval``),
    /// a changed answer emitted as ``StoreEvent/offeringsChanged(_:)``.
    @discardableResult
    public func refresh() async -> CustomerState {
        if server != nil {
            if !pendingPosts.isEmpty { _ = await postPending() }
            await readServerState()
            await refreshOfferings()
        }
        let now = state
        if let before = lastState { emit(Self.changes(from: before, to: now)) }
        lastState = now
        return now
    }

    /// Makes sure ``lastState`` holds the state before a change, when anyone listens to events.
    func prepareForChange() {
        if hub.isListened {
            if lastState == nil { lastState = state }
        } else {
            lastState = nil
        }
    }

    /// The events a change of state means: subscription groups that ended, entered billing retry or grace;
    /// features gained or lost; balances changed.
    static func changes(from before: CustomerState, to after: CustomerState) -> [StoreEvent] {
        var events: [StoreEvent] = []
        let previous = Dictionary(before.subscriptions.map { ($0.groupId, $0.status) }, uniquingKeysWith: { a, _ in a })
        for subscription in after.subscriptions {
            guard let old = previous[subscription.groupId], old != subscription.status else { continue }
            switch subscription.status {
            case .expired where old != .revoked: events.append(.expired(subscription))
            case .inBillingRetry: events.append(.billingRetry(subscription))
            case .inGracePeriod: events.append(.gracePeriod(subscription))
            default: break
            }
        }
        let had = Set(before.entitlements.map(\.feature)), has = Set(after.entitlements.map(\.feature))
        if had != has {
            events.append(.entitlementsChanged(gained: has.subtracting(had).sorted(), lost: had.subtracting(has).sorted()))
        }
        for currency in Set(before.balances.keys).union(after.balances.keys).sorted()
        where before.balance(currency) != after.balance(currency) {
            events.append(.balanceChanged(currency: currency, balance: after.balance(currency)))
        }
        return events
    }

    /// The state-change events after a change, when anyone listens; updates ``lastState``.
    func stateChangeEvents() -> [StoreEvent] {
        guard hub.isListened, let before = lastState else {
            lastState = nil
            return []
        }
        let after = state
        lastState = after
        return Self.changes(from: before, to: after)
    }
}
