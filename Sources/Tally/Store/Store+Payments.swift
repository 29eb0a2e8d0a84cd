extension Store {
    /// Whether this account may make purchases (StoreKit's `AppStore.canMakePayments`): false under parental
    /// controls or Screen Time restrictions, when a purchase would fail with `purchaseNotAllowed`. Hide or
    /// disable the buy buttons when false.
    public var canMakePayments: Bool {
        get async { await backend.canMakePayments }
    }
}
