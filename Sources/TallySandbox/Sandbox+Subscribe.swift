import Foundation
import TallyCore

extension Sandbox {
    /// The time rate in force.
    var timeRate: SandboxTimeRate { SandboxTimeRate(rawValue: settings.timeRate) }

    /// Buys an auto-renewable: a new period (first purchase or resubscription, with the introductory offer when
    /// eligible), an immediate upgrade or same-period crossgrade, or a change scheduled for the next renewal.
    /// Returns the transaction and whether it is new.
    mutating func subscribe(_ entry: IndexedProduct, account: String, device: String,
                            appAccountToken: String?) -> (StoreTransaction, Bool) {
        let product = entry.product
        let group = product.subscription?.groupId ?? product.id
        let existing = accounts[account]?.chains[group]
        if let chain = existing, chain.phase == .active, chain.productId != product.id,
           let current = productIndex[chain.productId]?.product,
           let latest = accounts[account]?.transaction(chain.latestTransactionId) {
            let change = SubscriptionChange.classify(from: current, to: product)
            if change.takesEffectImmediately {
                return (changeNow(to: entry, group: group, account: account, device: device, change: change), true)
            }
            scheduleChange(to: entry, group: group, account: account, device: device, change: change)
            return (latest, false)
        }
        return (startPeriod(entry, group: group, previous: existing, account: account, device: device,
                            appAccountToken: appAccountToken), true)
    }

    /// A new subscription period starting now: a first purchase, or a resubscription on the same chain.
    private mutating func startPeriod(_ entry: IndexedProduct, group: String, previous: SubscriptionChain?,
                                      account: String, device: String, appAccountToken: String?) -> StoreTransaction {
        let product = entry.product
        let period = product.subscription?.period ?? SubscriptionDuration(value: 1, unit: .month)
        let usedIntro = accounts[account]?.introductoryOfferUsedGroups.contains(group) ?? false
        let offer = usedIntro ? nil : product.subscription?.introductoryOffer
        var expires = timeRate.end(of: period, from: now)
        var price = entry.priceMillis
        var offerPeriodsLeft = 0
        if let offer {
            price = IndexedProduct.millis(offer.price)
            switch offer.paymentMode {
            case .freeTrial, .payUpFront:
                expires = timeRate.end(of: offer.period, count: offer.periodCount, from: now)
                if offer.paymentMode == .freeTrial { price = 0 }
            case .payAsYouGo:
                offerPeriodsLeft = max(0, offer.periodCount - 1)
            }
        }
        var transaction = makeTransaction(
            entry, purchaseDate: now, appAccountToken: appAccountToken, reason: .purchase,
            chain: previous.map { ($0.originalTransactionId, $0.originalPurchaseDate) }, expiresDate: expires,
            priceMillis: price)
        if let offer { transaction.applyIntroductoryOffer(offer) }
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
        withAccount(account) { record in
            record.chains[group] = chain
            if offer != nil { record.introductoryOfferUsedGroups.insert(group) }
        }
        log(.purchased, account: account, device: device, transaction: transaction,
            detail: previous == nil ? "INITIAL_BUY" : "RESUBSCRIBE")
        return transaction
    }

    /// An upgrade (or same-period crossgrade): the old transaction is marked upgraded, a new period starts now.
    private mutating func changeNow(to entry: IndexedProduct, group: String, account: String, device: String,
                                    change: SubscriptionChange) -> StoreTransaction {
        guard var chain = accounts[account]?.chains[group],
              var old = accounts[account]?.transaction(chain.latestTransactionId) else {
            return startPeriod(entry, group: group, previous: nil, account: account, device: device,
                               appAccountToken: nil)
        }
        old.isUpgraded = true
        old.resign(at: now)
        let period = entry.product.subscription?.period ?? SubscriptionDuration(value: 1, unit: .month)
        let expires = timeRate.end(of: period, from: now)
        let transaction = makeTransaction(
            entry, purchaseDate: now, appAccountToken: chain.renewalInfo.appAccountToken, reason: .purchase,
            chain: (chain.originalTransactionId, chain.originalPurchaseDate), expiresDate: expires)
        chain.latestTransactionId = transaction.transactionId
        chain.productId = entry.product.id
        chain.expiresDate = expires
        chain.offerPeriodsLeft = 0
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
        log(.upgraded, account: account, device: device, transaction: transaction, detail: change.notificationSubtype)
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
    /// Marks the transaction as bought with an introductory offer.
    mutating func applyIntroductoryOffer(_ offer: SubscriptionOffer) {
        offerType = .introductory
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
