extension ProductType {
    /// Whether the App Store gives this kind of purchase back to whoever restores or syncs it on any account:
    /// non-consumables, auto-renewable and non-renewing subscriptions. A consumable is consumed once and never
    /// restored, so its credit stays with the first customer it was credited to; an unknown type counts as
    /// not restorable (the conservative answer for money).
    public var isRestorable: Bool {
        self == .nonConsumable || self == .autoRenewable || self == .nonRenewing
    }
}
