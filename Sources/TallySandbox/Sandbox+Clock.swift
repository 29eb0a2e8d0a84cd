import Foundation
import TallyCore

extension Sandbox {
    /// Moves the clock forward, handling every scheduled subscription event on the way in date order:
    /// renewals, expiries, entering billing retry or grace, grace ending, retry giving up.
    /// Events of different subscriptions at the same moment run in account, then group order.
    public mutating func advance(by duration: SandboxDuration) {
        let target = Date(millisecondsSince1970: duration.advance(now).millisecondsSince1970)
        var queue = ScheduleQueue()
        for (account, record) in accounts {
            for (group, chain) in record.chains {
                if let date = chain.nextEventDate, date <= target {
                    queue.push(.init(date: date, account: account, group: group))
                }
            }
        }
        while let entry = queue.pop() {
            guard let chain = accounts[entry.account]?.chains[entry.group],
                  chain.nextEventDate == entry.date else { continue }
            now = max(now, entry.date)
            runScheduled(account: entry.account, group: entry.group)
            if let next = accounts[entry.account]?.chains[entry.group]?.nextEventDate, next <= target {
                queue.push(.init(date: next, account: entry.account, group: entry.group))
            }
        }
        now = target
        log(.clockAdvanced, account: "", detail: duration.description)
    }

    /// Handles the event due now on one chain.
    private mutating func runScheduled(account: String, group: String) {
        guard let chain = accounts[account]?.chains[group] else { return }
        switch chain.phase {
        case .active:
            if chain.renewalInfo.autoRenewStatus != .on {
                expire(account: account, group: group, intent: .customerCancelled, subtype: "VOLUNTARY")
            } else if productIndex[chain.nextProductId] == nil {
                expire(account: account, group: group, intent: .productUnavailable, subtype: "PRODUCT_NOT_FOR_SALE")
            } else if settings.isEnabled(.billingIssue, account: account) {
                enterBillingRetry(account: account, group: group)
            } else {
                renew(account: account, group: group, at: chain.expiresDate, kind: .renewed)
            }
        case .billingRetry:
            if chain.inGrace, let grace = chain.renewalInfo.gracePeriodExpiresDate, let end = chain.retryEnd,
               grace < end {
                withAccount(account) { $0.chains[group]?.inGrace = false }
                log(.gracePeriodExpired, account: account, productId: chain.productId,
                    transaction: accounts[account]?.transaction(chain.latestTransactionId))
            } else {
                expire(account: account, group: group, intent: .billingError, subtype: "BILLING_RETRY")
            }
        case .expired, .revoked:
            return
        }
    }

    /// A successful renewal (or recovery) at `date`: a new transaction of the product renewing next.
    mutating func renew(account: String, group: String, at date: Date, kind: SandboxEvent.Kind) {
        guard var chain = accounts[account]?.chains[group], let entry = productIndex[chain.nextProductId] else { return }
        let previousProduct = chain.productId
        let period = entry.product.subscription?.period ?? SubscriptionDuration(value: 1, unit: .month)
        var expires = timeRate.end(of: period, from: date)
        var price = entry.priceMillis
        var offer: SubscriptionOffer?
        if let scheduled = chain.scheduledOffer {
            // An offer redeemed during the last period begins now.
            offer = scheduled
            (expires, price, chain.offerPeriodsLeft) = firstPeriod(of: entry, offer: scheduled, from: date)
            chain.offer = chain.offerPeriodsLeft > 0 ? scheduled : nil
            chain.scheduledOffer = nil
        } else if chain.offerPeriodsLeft > 0, entry.product.id == previousProduct,
           let running = chain.offer ?? entry.product.subscription?.introductoryOffer, running.paymentMode == .payAsYouGo {
            offer = running
            price = IndexedProduct.millis(running.price)
            chain.offerPeriodsLeft -= 1
        } else {
            chain.offerPeriodsLeft = 0
            chain.offer = nil
        }
        if chain.offerPeriodsLeft == 0 { chain.offer = nil }
        var transaction = makeTransaction(
            entry, purchaseDate: date, appAccountToken: chain.renewalInfo.appAccountToken, reason: .renewal,
            chain: (chain.originalTransactionId, chain.originalPurchaseDate), expiresDate: expires, priceMillis: price)
        if let offer { transaction.apply(offer) }
        let nextIsOffer = chain.offerPeriodsLeft > 0
        chain.renewalInfo.offerType = nextIsOffer ? offer?.kind.offerType : nil
        chain.renewalInfo.offerIdentifier = nextIsOffer && offer?.kind != .introductory ? offer?.id : nil
        chain.latestTransactionId = transaction.transactionId
        chain.productId = entry.product.id
        chain.expiresDate = expires
        chain.phase = .active
        chain.inGrace = false
        chain.retryEnd = nil
        chain.renewalInfo.productId = entry.product.id
        chain.renewalInfo.autoRenewProductId = entry.product.id
        chain.renewalInfo.expirationIntent = nil
        chain.renewalInfo.isInBillingRetryPeriod = kind == .recovered ? false : chain.renewalInfo.isInBillingRetryPeriod
        chain.renewalInfo.gracePeriodExpiresDate = nil
        chain.renewalInfo.renewalDate = expires
        chain.renewalInfo.renewalPrice = chain.offerPeriodsLeft > 0 ? price : entry.priceMillis
        chain.renewalInfo.resign(at: now)
        let updated = chain
        withAccount(account) { $0.chains[group] = updated }
        record(transaction, account: account)
        log(kind, account: account, transaction: transaction,
            detail: previousProduct == entry.product.id ? nil : "from \(previousProduct)")
        deliverToAllDevices(transaction.transactionId, account: account)
    }

    /// A renewal failed for a billing reason: billing retry begins, with a grace period first when enabled.
    private mutating func enterBillingRetry(account: String, group: String) {
        guard var chain = accounts[account]?.chains[group] else { return }
        let period = productIndex[chain.productId]?.product.subscription?.period
            ?? SubscriptionDuration(value: 1, unit: .month)
        chain.phase = .billingRetry
        chain.retryEnd = timeRate.retryEnd(from: chain.expiresDate)
        chain.renewalInfo.isInBillingRetryPeriod = true
        chain.renewalInfo.resign(at: now)
        let grace = settings.isEnabled(.gracePeriod, account: account)
        if grace {
            chain.inGrace = true
            chain.renewalInfo.gracePeriodExpiresDate = timeRate.graceEnd(for: period, from: chain.expiresDate)
        }
        let updated = chain
        withAccount(account) { $0.chains[group] = updated }
        log(grace ? .gracePeriod : .billingRetry, account: account, productId: chain.productId,
            transaction: accounts[account]?.transaction(chain.latestTransactionId))
    }

    /// The subscription ends now for the given reason.
    private mutating func expire(account: String, group: String, intent: ExpirationIntent, subtype: String) {
        guard var chain = accounts[account]?.chains[group] else { return }
        chain.phase = .expired
        chain.inGrace = false
        chain.retryEnd = nil
        chain.renewalInfo.expirationIntent = intent
        if chain.renewalInfo.isInBillingRetryPeriod == true { chain.renewalInfo.isInBillingRetryPeriod = false }
        chain.renewalInfo.resign(at: now)
        let updated = chain
        withAccount(account) { $0.chains[group] = updated }
        log(.expired, account: account, productId: chain.productId,
            transaction: accounts[account]?.transaction(chain.latestTransactionId), detail: subtype)
    }

    /// Billing works again for these accounts: every chain in retry or grace renews now.
    mutating func recoverBilling(accounts names: [String]) {
        for account in names.sorted() where !settings.isEnabled(.billingIssue, account: account) {
            guard let chains = accounts[account]?.chains else { continue }
            for group in chains.keys.sorted() where chains[group]?.phase == .billingRetry {
                renew(account: account, group: group, at: now, kind: .recovered)
            }
        }
    }

    /// Auto-renew on or off for the account's subscription to a product (its current or next product).
    public mutating func setAutoRenew(productId: String, enabled: Bool,
                                      account: String = "default") throws(SandboxError) {
        guard let entry = productIndex[productId] else {
            throw SandboxError(.unknownProduct, "product '\(productId)' is not in the store's catalog")
        }
        guard let group = entry.product.subscription?.groupId else {
            throw SandboxError(.notSubscribed, "'\(productId)' is not an auto-renewable subscription")
        }
        guard let chain = accounts[account]?.chains[group],
              chain.phase == .active || chain.phase == .billingRetry,
              chain.productId == productId || chain.nextProductId == productId else {
            throw SandboxError(.notSubscribed, "account '\(account)' has no active subscription to '\(productId)'")
        }
        let status: AutoRenewStatus = enabled ? .on : .off
        guard chain.renewalInfo.autoRenewStatus != status else { return }
        let now = self.now
        withAccount(account) { record in
            record.chains[group]?.renewalInfo.autoRenewStatus = status
            record.chains[group]?.renewalInfo.resign(at: now)
        }
        log(.autoRenewChanged, account: account, productId: chain.productId,
            transaction: accounts[account]?.transaction(chain.latestTransactionId),
            detail: enabled ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED")
        if !enabled && chain.phase == .billingRetry {
            expire(account: account, group: group, intent: .customerCancelled, subtype: "VOLUNTARY")
        }
    }
}
