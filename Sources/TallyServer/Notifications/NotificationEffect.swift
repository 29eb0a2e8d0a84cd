import TallyCore

/// What each notification type does to customer state on this server (docs/server.md, *Notifications*).
///
/// Every notification is a full statement of its chain's state as of its `signedDate` (Apple's §8 rule), so
/// the types that carry `data` apply the same way: their signed transaction is stored as a posted one would be
/// (a renewal extends, a refund revokes and claws back, a reversal restores, an extension moves the expiry,
/// a family member's revocation revokes) and their renewal info becomes the chain's (will-renew, pending
/// product, billing retry and grace, price-increase consent). The TallyCore rules then compute the state.
enum NotificationEffect {
    /// The types whose facts are applied; every other type (`TEST`, `EXTERNAL_PURCHASE_TOKEN`,
    /// `RESCIND_CONSENT`, Advanced Commerce types, types Apple adds later) is recorded only.
    static let applying: Set<NotificationType> = [
        .subscribed, .didRenew, .didChangeRenewalPref, .didChangeRenewalStatus, .offerRedeemed, .didFailToRenew,
        .gracePeriodExpired, .expired, .priceIncrease, .refund, .refundDeclined, .refundReversed,
        .consumptionRequest, .revoke, .renewalExtended, .renewalExtension, .oneTimeCharge,
    ]

    /// Whether a notification of `type` applies its signed transaction and renewal info. A
    /// `RENEWAL_EXTENSION`/`SUMMARY` carries only counts (no `data`), so it is recorded only in effect.
    static func appliesFacts(_ type: NotificationType) -> Bool {
        applying.contains(type)
    }
}
