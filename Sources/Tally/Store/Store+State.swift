import Foundation
import TallyCore


extension Store {
    /// What the customer owns now, by the ownership rules over the customer file.
    public var state: CustomerState {
        CustomerState(catalog: catalog, configuration: configuration, history: record.history, at: clock())
    }

    /// Whether a feature of `tally.json` is active now.
    public func isEntitled(_ feature: String) -> Bool {
        state.isEntitled(feature)
    }

    /// The spendable balance of a currency now (zero when in debt; see ``CustomerState/debts``).
    public func balance(_ currency: String) -> Decimal {
        state.balance(currency)
    }

    /// Recomputes the state at the clock's now and emits what changed since the last look: ``StoreEvent/expired(_:)``
    /// for subscription groups no longer entitled, ``StoreEvent/balanceChanged(currency:balance:)``.
    @discardableResult
    public func refresh() -> CustomerState {
        let now = state
        if let before = lastState { hub.emit(Self.changes(from: before, to: now)) }
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

    /// The events a change of state means: groups expired, balances changed.
    static func changes(from before: CustomerState, to after: CustomerState) -> [StoreEvent] {
        var events: [StoreEvent] = []
        let previous = Dictionary(before.subscriptions.map { ($0.groupId, $0) }, uniquingKeysWith: { a, _ in a })
        for subscription in after.subscriptions where subscription.status == .expired {
            if previous[subscription.groupId]?.status.isEntitled == true { events.append(.expired(subscription)) }
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
