import TallyCore

extension SandboxEvent {
    /// The App Store Server Notification V2 type and subtype Apple sends for this event
    /// (../shared/docs/server-notifications-v2.md §4, §4.1); nil for an event Apple sends none for (a product
    /// request, a finish, a setting, an Ask to Buy request or approval — its purchase sends its own).
    ///
    /// Choices where Apple's documentation is silent (marked unconfirmed there): an immediate crossgrade is
    /// reported as `UPGRADE` (it takes effect at once, like an upgrade) and a crossgrade at the next renewal as
    /// `DOWNGRADE` (it waits for the renewal, like a downgrade).
    public var notificationKind: (type: NotificationType, subtype: NotificationSubtype?)? {
        switch kind {
        case .purchased:
            switch detail {
            case NotificationSubtype.initialBuy.rawValue: return (.subscribed, .initialBuy)
            case NotificationSubtype.resubscribe.rawValue: return (.subscribed, .resubscribe)
            default: return (.oneTimeCharge, nil)
            }
        case .upgraded: return (.didChangeRenewalPref, .upgrade)
        case .renewalPreferenceChanged: return (.didChangeRenewalPref, detail == nil ? nil : .downgrade)
        case .autoRenewChanged:
            return (.didChangeRenewalStatus,
                    detail == NotificationSubtype.autoRenewEnabled.rawValue ? .autoRenewEnabled : .autoRenewDisabled)
        case .renewed: return (.didRenew, nil)
        case .recovered: return (.didRenew, .billingRecovery)
        case .billingRetry: return (.didFailToRenew, nil)
        case .gracePeriod: return (.didFailToRenew, .gracePeriod)
        case .gracePeriodExpired: return (.gracePeriodExpired, nil)
        case .expired: return (.expired, detail.map(NotificationSubtype.init(rawValue:)))
        case .refunded: return (.refund, nil)
        case .refundRequested: return (.consumptionRequest, nil)
        case .refundDeclined: return (.refundDeclined, nil)
        case .refundReversed: return (.refundReversed, nil)
        case .renewalExtended: return (.renewalExtended, nil)
        case .renewalExtensionFailed: return (.renewalExtension, .failure)
        case .renewalExtensionSummary: return (.renewalExtension, .summary)
        case .offerRedeemed: return (.offerRedeemed, detail.map(NotificationSubtype.init(rawValue:)))
        case .consumptionInfoReceived, .appAccountTokenSet, .offerCodesCreated: return nil
        case .created, .productsRequested, .alreadyOwned, .pending, .approved, .declined, .resolved, .cancelled,
             .failed, .finished, .restored, .settingsChanged, .clockAdvanced, .catalogReloaded:
            return nil
        }
    }

    /// The subscription status Apple reports in `data.status` as of this event (1 active, 2 expired, 3 billing
    /// retry, 4 billing grace period, 5 revoked); nil for events about purchases that are no subscription.
    func subscriptionStatus(isSubscription: Bool) -> Int? {
        guard isSubscription else { return nil }
        switch kind {
        case .billingRetry, .gracePeriodExpired: return 3
        case .gracePeriod: return 4
        case .expired: return 2
        case .refunded: return 5
        default: return 1
        }
    }
}
