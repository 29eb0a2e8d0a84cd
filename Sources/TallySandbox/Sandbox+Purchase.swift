import Foundation
import TallyCore

extension Sandbox {
    /// Buys a product for an account on a device, as `Product.purchase()` does under StoreKit Testing.
    ///
    /// Checks in order: injected fault, `failTransactions`, unknown product, parental controls, quantity, the
    /// offer (``SandboxOffer``, checked with `offerKeys` as the App Store does), already owned (returns the
    /// existing transaction, nothing charged; a promotional or offer-code offer on the subscription in force is
    /// scheduled for its next renewal), Ask to Buy, interrupted; then completes.
    public mutating func purchase(_ productId: String, account: String = "default", device: String = "default",
                                  quantity: Int = 1, appAccountToken: String? = nil, offer: SandboxOffer? = nil,
                                  offerKeys: SandboxOfferKeys? = nil) -> PurchaseResult {
        if let failure = settings.takeFault(.purchase) {
            return fail(failure.error(for: .purchase), failure: failure, productId: productId, account: account,
                        device: device)
        }
        if settings.failTransactions {
            return fail(SandboxError(.unknown, "purchase of '\(productId)' failed: every purchase fails while 'failTransactionsEnabled' is on"),
                        productId: productId, account: account, device: device)
        }
        guard let entry = productIndex[productId] else {
            return fail(SandboxError(.unknownProduct, "product '\(productId)' is not in the store's catalog: check the id against the .storekit file"),
                        productId: productId, account: account, device: device)
        }
        if settings.isEnabled(.parentalControls, account: account) {
            return fail(SandboxError(.purchaseNotAllowed, "account '\(account)' may not make purchases: parental controls are on (turn 'parental-controls' off)"),
                        productId: productId, account: account, device: device)
        }
        if quantity < 1 || (quantity > 1 && entry.product.kind != .consumable) {
            let what = quantity < 1 ? "a quantity below 1" : "a quantity above 1 (only consumables allow one)"
            return fail(SandboxError(.invalidQuantity, "cannot buy \(quantity) × '\(productId)': \(what)"),
                        productId: productId, account: account, device: device)
        }
        withAccount(account) { $0.connect(device) }
        var grant: OfferGrant?
        if let offer {
            do throws(SandboxError) {
                grant = try checkOffer(offer, for: entry, account: account, appAccountToken: appAccountToken,
                                       keys: offerKeys ?? SandboxOfferKeys(keys: [:], wallClock: Date()))
            } catch {
                return fail(error, productId: productId, account: account, device: device)
            }
        }
        if let owned = alreadyOwned(entry.product, account: account) {
            if let offer = grant?.offer, let group = entry.product.subscription?.groupId {
                scheduleOffer(offer, group: group, account: account, device: device, subtype: nil)
            } else {
                log(.alreadyOwned, account: account, device: device, transaction: owned)
            }
            return .purchased(owned)
        }
        let reason: PendingPurchase.Reason? = settings.isEnabled(.askToBuy, account: account) ? .askToBuy
            : settings.isEnabled(.interrupted, account: account) ? .interrupted : nil
        if let reason {
            var waiting = PendingPurchase(purchaseId: "purchase-\(nextPurchaseNumber)", productId: productId,
                                          account: account, device: device, quantity: quantity, reason: reason,
                                          createdDate: now, appAccountToken: appAccountToken)
            waiting.offerGrant = grant
            nextPurchaseNumber += 1
            pending.append(waiting)
            log(.pending, account: account, device: device, productId: productId, purchaseId: waiting.purchaseId,
                detail: reason.rawValue)
            return .pending(waiting)
        }
        let (transaction, isNew) = complete(entry, account: account, device: device, quantity: quantity,
                                            appAccountToken: appAccountToken, grant: grant)
        if isNew { deliver(transaction.transactionId, account: account, to: [device]) }
        return .purchased(transaction)
    }

    /// A parent approves an Ask to Buy purchase: the transaction is made now and delivered as an update
    /// (unfinished on every device of the account).
    public mutating func approve(purchaseId: String) throws(SandboxError) -> StoreTransaction {
        let waiting = try takePending(purchaseId, expecting: .askToBuy)
        log(.approved, account: waiting.account, device: waiting.device, productId: waiting.productId,
            purchaseId: purchaseId)
        let (transaction, isNew) = try finishPending(waiting)
        if isNew { deliverToAllDevices(transaction.transactionId, account: waiting.account) }
        return transaction
    }

    /// A parent declines an Ask to Buy purchase: nothing is charged, no transaction is made, and the purchase
    /// id is kept in ``declinedPurchases(account:)`` so the app can end its pending purchase.
    public mutating func decline(purchaseId: String) throws(SandboxError) {
        let waiting = try takePending(purchaseId, expecting: .askToBuy)
        withAccount(waiting.account) { $0.declinedPurchases.append(purchaseId) }
        log(.declined, account: waiting.account, device: waiting.device, productId: waiting.productId,
            purchaseId: purchaseId)
    }

    /// Ids of the account's Ask to Buy purchases a parent declined, oldest first.
    public func declinedPurchases(account: String = "default") -> [String] {
        accounts[account]?.declinedPurchases ?? []
    }

    /// Whether the account may buy (StoreKit's `AppStore.canMakePayments`): false while parental controls are
    /// on for it.
    public func canMakePayments(account: String = "default") -> Bool {
        !settings.isEnabled(.parentalControls, account: account)
    }

    /// The customer resolves an interrupted purchase: it completes now on the purchasing device.
    public mutating func resolveInterrupted(purchaseId: String) throws(SandboxError) -> StoreTransaction {
        let waiting = try takePending(purchaseId, expecting: .interrupted)
        log(.resolved, account: waiting.account, device: waiting.device, productId: waiting.productId,
            purchaseId: purchaseId)
        let (transaction, isNew) = try finishPending(waiting)
        if isNew { deliver(transaction.transactionId, account: waiting.account, to: [waiting.device]) }
        return transaction
    }

    // MARK: - Helpers

    private mutating func fail(_ error: SandboxError, failure: SandboxFailure? = nil, productId: String,
                               account: String, device: String) -> PurchaseResult {
        if failure == .cancelled {
            log(.cancelled, account: account, device: device, productId: productId)
            return .cancelled
        }
        log(.failed, account: account, device: device, productId: productId, detail: error.message)
        return .failed(error)
    }

    private mutating func takePending(_ purchaseId: String,
                                      expecting reason: PendingPurchase.Reason) throws(SandboxError) -> PendingPurchase {
        guard let index = pending.firstIndex(where: { $0.purchaseId == purchaseId }) else {
            if resolvedPurchases.contains(purchaseId) {
                throw SandboxError(.alreadyResolved, "pending purchase '\(purchaseId)' was already approved, declined or resolved")
            }
            throw SandboxError(.unknownPurchase, "no pending purchase '\(purchaseId)': list them with 'tally sandbox history --account ACCOUNT'")
        }
        guard pending[index].reason == reason else {
            let other = pending[index].reason == .askToBuy ? "approve or decline it" : "resolve it"
            throw SandboxError(.wrongPendingKind, "pending purchase '\(purchaseId)' is \(pending[index].reason.rawValue), not \(reason.rawValue): \(other)")
        }
        resolvedPurchases.insert(purchaseId)
        return pending.remove(at: index)
    }

    /// Completes a pending purchase; an item owned by now is returned as is.
    private mutating func finishPending(_ waiting: PendingPurchase) throws(SandboxError) -> (StoreTransaction, Bool) {
        guard let entry = productIndex[waiting.productId] else {
            throw SandboxError(.unknownProduct, "product '\(waiting.productId)' is no longer in the catalog")
        }
        if let owned = alreadyOwned(entry.product, account: waiting.account) {
            log(.alreadyOwned, account: waiting.account, device: waiting.device, transaction: owned)
            return (owned, false)
        }
        return complete(entry, account: waiting.account, device: waiting.device, quantity: waiting.quantity,
                        appAccountToken: waiting.appAccountToken, grant: waiting.offerGrant)
    }

    /// The existing transaction when buying would charge nothing: an owned non-consumable, or the product of
    /// the group's subscription in force (turning auto-renew back on and cancelling a pending change).
    mutating func alreadyOwned(_ product: CatalogProduct, account: String) -> StoreTransaction? {
        guard let record = accounts[account] else { return nil }
        switch product.kind {
        case .nonConsumable:
            return record.ownedNonConsumables[product.id].flatMap(record.transaction)
        case .autoRenewable:
            guard let group = product.subscription?.groupId, let chain = record.chains[group],
                  chain.phase == .active, chain.productId == product.id,
                  let latest = record.transaction(chain.latestTransactionId) else { return nil }
            keepSubscription(group: group, account: account)
            return latest
        case .consumable, .nonRenewing:
            return nil
        }
    }

    /// Makes the transaction of a purchase that goes through now.
    /// Returns the transaction and whether it is new (false for a change scheduled at renewal).
    mutating func complete(_ entry: IndexedProduct, account: String, device: String, quantity: Int,
                           appAccountToken: String?, grant: OfferGrant? = nil) -> (StoreTransaction, Bool) {
        if entry.product.kind == .autoRenewable {
            return subscribe(entry, account: account, device: device, appAccountToken: appAccountToken, grant: grant)
        }
        let transaction = makeTransaction(entry, purchaseDate: now, quantity: quantity,
                                          appAccountToken: appAccountToken, reason: .purchase)
        record(transaction, account: account)
        log(.purchased, account: account, device: device, transaction: transaction,
            detail: quantity > 1 ? "quantity \(quantity)" : nil)
        return (transaction, true)
    }

    /// Adds a transaction to the account's history and the id index.
    mutating func record(_ transaction: StoreTransaction, account: String) {
        withAccount(account) { $0.append(transaction) }
        transactionAccounts[transaction.transactionId] = account
    }

    /// A new transaction of a product with Apple's fields filled from the store.
    mutating func makeTransaction(_ entry: IndexedProduct, purchaseDate: Date, quantity: Int = 1,
                                  appAccountToken: String?, reason: TransactionReason,
                                  chain: (originalTransactionId: String, originalPurchaseDate: Date)? = nil,
                                  expiresDate: Date? = nil, priceMillis: Int64? = nil) -> StoreTransaction {
        let id = takeTransactionId()
        let product = entry.product
        let isSubscription = product.kind == .autoRenewable
        return StoreTransaction(
            transactionId: id, originalTransactionId: chain?.originalTransactionId ?? id,
            webOrderLineItemId: isSubscription ? takeWebOrderLineItemId() : nil,
            bundleId: configuration.bundleId, productId: product.id,
            subscriptionGroupIdentifier: product.subscription?.groupId,
            purchaseDate: purchaseDate, originalPurchaseDate: chain?.originalPurchaseDate ?? purchaseDate,
            expiresDate: expiresDate, quantity: quantity, type: product.kind.transactionType,
            appAccountToken: appAccountToken, inAppOwnershipType: .purchased, signedDate: now,
            environment: environment, storefront: settings.storefront, storefrontId: Storefronts.appleId(for: settings.storefront),
            transactionReason: reason, currency: product.currency, price: priceMillis ?? entry.priceMillis)
    }
}
