import Foundation
import TallyCore

extension Sandbox {
    /// The time rate in force.
    var timeRate: SandboxTimeRate { SandboxTimeRate(rawValue: settings.timeRate) }

    /// Buys an auto-renewable: a new period (first purchase or resubscription, with the introductory offer when
    /// eligible), an immediate upgrade or same-period crossgrade, or a change scheduled for the next renewal.
    /// Returns the transaction and whether it is new.
    mutating func subscribe(_ entry: IndexedProduct, account: String, device: String,
                            appAccountToken: String?, grant: OfferGrant? = nil) -> (StoreTransaction, Bool) {
        let product = entry.product
        let group = product.subscription?.groupId ?? product.id
        let existing = accounts[account]?.chains[group]
        if let chain = existing, chain.phase == .active, chain.productId != product.id,
           let current = productIndex[chain.productId]?.product,
           let latest = accounts[account]?.transaction(chain.latestTransactionId) {
            let change = SubscriptionChange.classify(from: current, to: product)
            if change.takesEffectImmediately {
                return (changeNow(to: entry, group: group, account: account, device: device, change: change,
                                  offer: grant?.offer), true)
            }
            scheduleChange(to: entry, group: group, account: account, device: device, change: change)
            if let offer = grant?.offer {
                scheduleOffer(offer, group: group, account: account, device: device, subtype: "DOWNGRADE")
            }
            return (latest, false)
        }
        return (startPeriod(entry, group: group, previous: existing, account: account, device: device,
                            appAccountToken: appAccountToken, grant: grant), true)
    }

    /// The first period of `entry` bought with `offer` (nil: the standard price) from `start`: when it ends, what
    /// it costs, and how many more periods bill at the offer's price (pay as you go).
    func firstPeriod(of entry: IndexedProduct, offer: SubscriptionOffer?, from start: Date)
        -> (expires: Date, priceMillis: Int64, offerPeriodsLeft: Int)
    {
        let period = entry.product.subscription?.period ?? SubscriptionDuration(value: 1, unit: .month)
        guard let offer else { return (timeRate.end(of: period, from: start), entry.priceMillis, 0) }
        switch offer.paymentMode {
        case .freeTrial:
            return (timeRate.end(of: offer.period, count: offer.periodCount, from: start), 0, 0)
        case .payUpFront:
            return (timeRate.end(of: offer.period, count: offer.periodCount, from: start), IndexedProduct.millis(offer.price), 0)
        case .payAsYouGo:
            return (timeRate.end(of: offer.period, from: start), IndexedProduct.millis(offer.price),
                    max(0, offer.periodCount - 1))
        }
    }

    /// A promotional or offer-code offer redeemed on the subscription in force: it applies from the next renewal
    /// (OFFER_REDEEMED, with `subtype` for a downgrade).
    mutating func scheduleOffer(_ offer: SubscriptionOffer, group: String, account: String, device: String,
                                subtype: String?) {
        guard var chain = accounts[account]?.chains[group] else { return }
        chain.scheduledOffer = offer
        chain.renewalInfo.offerType = offer.kind.offerType
        chain.renewalInfo.offerIdentifier = offer.id
        chain.renewalInfo.renewalPrice = offer.paymentMode == .freeTrial ? 0 : IndexedProduct.millis(offer.price)
        chain.renewalInfo.resign(at: now)
        let updated = chain
        withAccount(account) { $0.chains[group] = updated }
        log(.offerRedeemed, account: account, device: device, productId: updated.nextProductId,
            transaction: accounts[account]?.transaction(updated.latestTransactionId), detail: subtype)
    }

    /// A new subscription period starting now: a first purchase, or a resubscription on the same chain.
    private mutating func startPeriod(_ entry: IndexedProduct, group: String, previous: SubscriptionChain?,
                                      account: String, device: String, appAccountToken: String?,
                                      grant: OfferGrant? = nil) -> StoreTransaction {
        let product = entry.product
        let introAllowed: Bool
        if case .introductory(let allowed) = grant {
            introAllowed = allowed
        } else {
            introAllowed = isEligibleForIntroOffer(groupId: group, account: account)
        }
        let offer = grant?.offer ?? (introAllowed ? product.subscription?.introductoryOffer : nil)
        let (expires, price, offerPeriodsLeft) = firstPeriod(of: entry, offer: offer, from: now)
        var transaction = makeTransaction(
            entry, purchaseDate: now, appAccountToken: appAccountToken, reason: .purchase,
            chain: previous.map { ($0.originalTransactionId, $0.originalPurchaseDate) }, expiresDate: expires,
            priceMillis: price)
        if let offer { transaction.apply(offer) }
        record(transaction, account: account)
        var recentStart = now
        if let previous, previous.phase != .revoked, let start = previous.renewalInfo.recentSubscriptionStartDate,
           SubscriptionDuration(value: 60, unit: .day).advance(previous.expiresDate) > now {
            recentStart = start
        }
        let info = RenewalInfo(
            originalTransactionId: transaction.originalTransactionId, productId: product.id,
            autoRenewProductId: product.id, autoRenewStatus: .on, signedDate: now, environment: environment,
            recentSubscriptionStartDate: recentStart, renewalDate: expires, currency: product.currency,
            renewalPrice: offerPeriodsLeft > 0 ? price : entry.priceMillis, appAccountToken: appAccountToken)
        let chain = SubscriptionChain(
            groupId: group, originalTransactionId: transaction.originalTransactionId,
            originalPurchaseDate: transaction.originalPurchaseDate ?? now,
            latestTransactionId: transaction.transactionId, productId: product.id, expiresDate: expires,
            phase: .active, offerPeriodsLeft: offerPeriodsLeft, renewalInfo: info)
        var running = chain
        running.offer = offerPeriodsLeft > 0 ? offer : nil
        let saved = running
        withAccount(account) { record in
            record.chains[group] = saved
            if offer?.kind == .introductory { record.introductoryOfferUsedGroups.insert(group) }
            if offer?.kind == .winBack, let id = offer?.id { record.redeemedWinBackOffers.insert(id) }
        }
        log(.purchased, account: account, device: device, transaction: transaction,
            detail: previous == nil ? "INITIAL_BUY" : "RESUBSCRIBE")
        return transaction
    }

    /// An upgrade (or same-period crossgrade): the old transaction is marked upgraded, a new period starts now.
    private mutating func changeNow(to entry: IndexedProduct, group: String, account: String, device: String,
                                    change: SubscriptionChange, offer: SubscriptionOffer? = nil) -> StoreTransaction {
        guard var chain = accounts[account]?.chains[group],
              var old = accounts[account]?.transaction(chain.latestTransactionId) else {
            return startPeriod(entry, group: group, previous: nil, account: account, device: device,
                               appAccountToken: nil, grant: offer.map(OfferGrant.offer))
        }
        old.isUpgraded = true
        old.resign(at: now)
        let (expires, price, offerPeriodsLeft) = firstPeriod(of: entry, offer: offer, from: now)
        var transaction = makeTransaction(
            entry, purchaseDate: now, appAccountToken: chain.renewalInfo.appAccountToken, reason: .purchase,
            chain: (chain.originalTransactionId, chain.originalPurchaseDate), expiresDate: expires, priceMillis: price)
        if let offer { transaction.apply(offer) }
        chain.latestTransactionId = transaction.transactionId
        chain.productId = entry.product.id
        chain.expiresDate = expires
        chain.offerPeriodsLeft = offerPeriodsLeft
        chain.offer = offerPeriodsLeft > 0 ? offer : nil
        chain.scheduledOffer = nil
        chain.renewalInfo.productId = entry.product.id
        chain.renewalInfo.autoRenewProductId = entry.product.id
        chain.renewalInfo.autoRenewStatus = .on
        chain.renewalInfo.renewalDate = expires
        chain.renewalInfo.renewalPrice = entry.priceMillis
        chain.renewalInfo.resign(at: now)
        let updatedChain = chain
        withAccount(account) { record in
            record.replace(old)
            record.chains[group] = updatedChain
        }
        record(transaction, account: account)
        if offer != nil {
            log(.offerRedeemed, account: account, device: device, transaction: transaction, detail: "UPGRADE")
        } else {
            log(.upgraded, account: account, device: device, transaction: transaction, detail: change.notificationSubtype)
        }
        return transaction
    }

    /// A downgrade (or crossgrade to another period): the renewal info names the new product for the next renewal.
    private mutating func scheduleChange(to entry: IndexedProduct, group: String, account: String, device: String,
                                         change: SubscriptionChange) {
        let now = self.now
        let info: RenewalInfo? = withAccount(account) { record in
            record.chains[group]?.renewalInfo.autoRenewProductId = entry.product.id
            record.chains[group]?.renewalInfo.autoRenewStatus = .on
            record.chains[group]?.renewalInfo.renewalPrice = entry.priceMillis
            record.chains[group]?.renewalInfo.resign(at: now)
            return record.chains[group]?.renewalInfo
        }
        events.append(SandboxEvent(sequence: nextEventSequence, date: now, kind: .renewalPreferenceChanged,
                                   account: account, device: device, productId: entry.product.id,
                                   originalTransactionId: info?.originalTransactionId, detail: change.notificationSubtype))
    }

    /// Buying the product in force again: cancels a pending change and turns auto-renew back on.
    mutating func keepSubscription(group: String, account: String) {
        guard var chain = accounts[account]?.chains[group] else { return }
        let original = chain.originalTransactionId
        if chain.renewalInfo.autoRenewProductId != chain.productId {
            chain.renewalInfo.autoRenewProductId = chain.productId
            chain.renewalInfo.renewalPrice = productIndex[chain.productId]?.priceMillis
            events.append(SandboxEvent(sequence: nextEventSequence, date: now, kind: .renewalPreferenceChanged,
                                       account: account, productId: chain.productId,
                                       originalTransactionId: original))
        }
        if chain.renewalInfo.autoRenewStatus != .on {
            chain.renewalInfo.autoRenewStatus = .on
            chain.renewalInfo.expirationIntent = nil
            events.append(SandboxEvent(sequence: nextEventSequence, date: now, kind: .autoRenewChanged,
                                       account: account, productId: chain.productId,
                                       originalTransactionId: original, detail: "AUTO_RENEW_ENABLED"))
        }
        chain.renewalInfo.resign(at: now)
        let updated = chain
        withAccount(account) { $0.chains[group] = updated }
    }
}

extension StoreTransaction {
    /// Marks the transaction as bought with `offer`: `offerType`, `offerIdentifier` (none for an introductory
    /// offer), `offerDiscountType` and `offerPeriod`.
    mutating func apply(_ offer: SubscriptionOffer) {
        offerType = offer.kind.offerType
        offerIdentifier = offer.kind == .introductory ? nil : offer.id
        switch offer.paymentMode {
        case .freeTrial: offerDiscountType = .freeTrial
        case .payAsYouGo: offerDiscountType = .payAsYouGo
        case .payUpFront: offerDiscountType = .payUpFront
        }
        let count = offer.paymentMode == .payAsYouGo ? 1 : offer.periodCount
        offerPeriod = SubscriptionDuration(value: offer.period.value * count, unit: offer.period.unit).iso8601
    }
}

extension SubscriptionChange {
    /// The `DID_CHANGE_RENEWAL_PREF` subtype Apple uses for the change, nil when there is none.
    var notificationSubtype: String? {
        switch self {
        case .upgrade: "UPGRADE"
        case .downgrade: "DOWNGRADE"
        case .crossgradeImmediate, .crossgradeAtRenewal: "CROSSGRADE"
        case .same, .unrelated: nil
        }
    }
}
