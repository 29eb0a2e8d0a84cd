import Foundation

/// Which webhook events a write makes, decided from what the write did (docs/webhooks.md): the one rule the
/// stores' recorders ask, so every store and every path (post, notification, reconciliation) emits the same.
///
/// Nothing changed, nothing emitted: a duplicate post or notification writes no event.
public enum WebhookEventRules {
    /// The events of storing `incoming` for `owner`: `stored` is the copy it replaced (nil: inserted), `previous`
    /// the latest other transaction of its chain stored before it (nil: none), `credits` how the owner's virtual
    /// currencies moved. Ids come from `makeId`, one per event.
    ///
    /// - Inserted: an auto-renewable subscription is `INITIAL_PURCHASE` when its chain had nothing stored and it
    ///   is the chain's first transaction, `PRODUCT_CHANGE` when the chain's previous transaction was another
    ///   product, else `RENEWAL`; anything else is `NON_RENEWING_PURCHASE`. Inserted already revoked: `REFUND` too.
    /// - Replaced: `REFUND` when a `revocationDate` appeared, `REFUND_REVERSED` when it went away; other
    ///   changes (a new `signedDate`, an extension's `expiresDate`) emit nothing here.
    /// - Either: `VIRTUAL_CURRENCY_TRANSACTION` when currencies moved.
    public static func events(storing incoming: StoreTransaction, replacing stored: StoreTransaction?,
                              previous: StoreTransaction?, credits: [(currency: String, amount: Decimal)],
                              owner: String, at date: Date, makeId: () -> String) -> [WebhookEvent] {
        var events: [WebhookEvent] = []
        func add(_ type: WebhookEventType, at eventAt: Date) {
            var event = base(type, incoming, owner: owner, id: makeId(), at: eventAt)
            if type == .productChange { event.previousProductId = previous?.productId }
            events.append(event)
        }
        if let stored {
            if stored.revocationDate == nil, let revoked = incoming.revocationDate {
                add(.refund, at: revoked)
            } else if stored.revocationDate != nil, incoming.revocationDate == nil {
                add(.refundReversed, at: date)
            }
        } else {
            add(purchaseType(of: incoming, previous: previous), at: incoming.purchaseDate)
            if let revoked = incoming.revocationDate { add(.refund, at: revoked) }
        }
        let moved = credits.filter { $0.amount != 0 }
        if !moved.isEmpty {
            var event = base(.virtualCurrencyTransaction, incoming, owner: owner, id: makeId(),
                             at: stored == nil ? incoming.purchaseDate : (incoming.revocationDate ?? date))
            event.virtualCurrency = moved.map { WebhookCurrencyChange(code: $0.currency, amount: $0.amount) }
            events.append(event)
        }
        return events
    }

    /// The purchase event of a transaction stored for the first time.
    static func purchaseType(of incoming: StoreTransaction, previous: StoreTransaction?) -> WebhookEventType {
        guard incoming.type == .autoRenewable else { return .nonRenewingPurchase }
        if let previous {
            return previous.productId.hasSameBytes(as: incoming.productId) ? .renewal : .productChange
        }
        return incoming.transactionId.hasSameBytes(as: incoming.originalTransactionId) ? .initialPurchase : .renewal
    }

    /// The `TRANSFER` event of `chain` moving from `from` to `to` at `date`, about `latest`, the chain's newest
    /// transaction (when known).
    public static func transfer(chain: String, from: String, to: String, latest: StoreTransaction?, at date: Date,
                                id: String) -> WebhookEvent {
        var event = latest.map { base(.transfer, $0, owner: to, id: id, at: date) }
            ?? WebhookEvent(id: id, type: .transfer, appUserId: to, originalTransactionId: chain, eventAt: date)
        event.transferredFrom = from
        event.transferredTo = to
        return event
    }

    /// The `VIRTUAL_CURRENCY_TRANSACTION` event of a spend: `amount` of `currency` taken from `owner`.
    public static func spend(id spendId: String, currency: String, amount: Decimal, owner: String, at date: Date,
                             id: String) -> WebhookEvent {
        WebhookEvent(id: id, type: .virtualCurrencyTransaction, appUserId: owner, transactionId: spendId,
                     eventAt: date, virtualCurrency: [WebhookCurrencyChange(code: currency, amount: -amount)])
    }

    /// The event an App Store Server Notification makes by its type itself, beyond what its transaction's write
    /// makes (``events(storing:replacing:previous:credits:owner:at:makeId:)``); nil for the others (a
    /// `DID_RENEW` or a `REFUND` is its transaction's write).
    public static func notificationEventType(_ notificationType: String, subtype: String?) -> WebhookEventType? {
        switch notificationType {
        case "DID_CHANGE_RENEWAL_STATUS":
            switch subtype {
            case "AUTO_RENEW_DISABLED": .cancellation
            case "AUTO_RENEW_ENABLED": .uncancellation
            default: nil
            }
        case "DID_FAIL_TO_RENEW": .billingIssue
        case "EXPIRED": .expiration
        case "RENEWAL_EXTENDED": .subscriptionExtended
        default: nil
        }
    }

    /// A notification's own event (``notificationEventType(_:subtype:)``) for `owner`, about its transaction
    /// (when it carries one) or its renewal info's product and chain.
    public static func notificationEvent(_ type: WebhookEventType, transaction: StoreTransaction?,
                                         renewalInfo: RenewalInfo?, owner: String, at date: Date,
                                         id: String) -> WebhookEvent {
        if let transaction { return base(type, transaction, owner: owner, id: id, at: date) }
        return WebhookEvent(id: id, type: type, appUserId: owner, productId: renewalInfo?.productId,
                            originalTransactionId: renewalInfo?.originalTransactionId,
                            environment: renewalInfo?.environment?.rawValue, eventAt: date)
    }

    /// An event about `transaction`, with its product, ids, environment, expiry and price.
    static func base(_ type: WebhookEventType, _ transaction: StoreTransaction, owner: String, id: String,
                     at date: Date) -> WebhookEvent {
        WebhookEvent(id: id, type: type, appUserId: owner, productId: transaction.productId,
                     transactionId: transaction.transactionId, originalTransactionId: transaction.originalTransactionId,
                     environment: transaction.environment?.rawValue, eventAt: date, expiresAt: transaction.expiresDate,
                     price: transaction.priceAmount, currency: transaction.currency)
    }
}
