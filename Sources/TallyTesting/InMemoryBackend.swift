import Foundation
import Tally
import TallyCore

/// An App Store in memory, for an app's tests of its purchase code with the real engine and no device: a
/// `StoreBackend` that sells the catalog's products, keeps transactions, delivers them unfinished until the engine
/// finishes them, restores non-consumables and subscriptions (never consumables), plays Ask to Buy, refunds,
/// renewals, purchases on another device and auto-renew changes, and can be told to fail. Its time is a
/// ``TestClock``'s, and what it delivers is "signed" by ``InMemorySignatures``, so the engine's rule that only
/// signed transactions count holds here too.
///
/// ```swift
/// let clock = TestClock()
/// let backend = InMemoryBackend(catalog: catalog, configuration: configuration, clock: clock)
/// let store = try await Store(backend: backend, catalog: catalog, configuration: configuration,
///                             directory: FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString))
/// _ = try await store.purchase("com.example.premium")
/// await backend.refund(try #require(await backend.transactions.last).transactionId)
/// ```
public actor InMemoryBackend: StoreBackend {
    /// What the next purchase does instead of buying (see ``setNext(_:)``); after it, purchases buy again.
    public enum NextPurchase: Sendable {
        /// Buys (the default).
        case buy
        /// Waits for a parent's approval: the purchase is pending until ``approve(_:announcingPurchaseId:)``.
        case askToBuy
        /// The customer cancels the purchase sheet.
        case cancel
        /// The purchase throws `error`.
        case fail(StoreError)
    }

    /// The products this store sells.
    public let catalog: Catalog
    /// The bundle id written into every transaction.
    public let bundleId: String
    /// The store's clock: every purchase, renewal and refund is dated by it.
    public let testClock: TestClock
    /// Whether `canMakePayments` answers false (parental controls on).
    public private(set) var paymentsRestricted = false
    /// What the next purchase does.
    public private(set) var next: NextPurchase = .buy
    /// How many of the coming `finish` calls fail.
    public private(set) var finishFailures = 0
    /// How many of the coming `restore` calls fail.
    public private(set) var restoreFailures = 0
    /// Every transaction of the account, in the order made, each in its latest form (a refund dates it revoked).
    public private(set) var transactions: [StoreTransaction] = []
    /// Ids of the transactions delivered and not finished yet, oldest first.
    public private(set) var unfinishedIds: [String] = []
    /// How many `finish` calls reached this store (failed ones included).
    public private(set) var finishCount = 0
    /// How many restores reached this store.
    public private(set) var restoreCount = 0
    /// How many product requests reached this store.
    public private(set) var productRequests = 0
    /// Original transaction id → the chain's current renewal info, as ``subscriptionStatuses()`` reports it.
    public private(set) var renewalInfos: [String: RenewalInfo] = [:]
    /// How many of the coming `subscriptionStatuses` calls fail.
    public private(set) var statusFailures = 0
    /// How many subscription status requests reached this store.
    public private(set) var statusRequests = 0
    /// Renewal infos answered as they are after the store's own (a forged or transplanted signed form).
    public private(set) var statusesAsIs: [SignedRenewalInfo] = []
    private var pending: [String: PurchaseRequest] = [:]
    private var nextNumber = 1000
    private let listeners = Listeners()

    /// A store selling `catalog` to an app whose bundle id is `configuration`'s, on `clock`.
    public init(catalog: Catalog, configuration: AppConfiguration, clock: TestClock = TestClock()) {
        self.catalog = catalog
        self.bundleId = configuration.bundleId
        self.testClock = clock
    }

    /// What this store signed: the engine's verifier.
    public nonisolated let signatures = InMemorySignatures()

    /// ``signatures``: only what this store issued verifies.
    public nonisolated var transactionVerifier: any TransactionVerifier { signatures }

    /// An update carrying a new signed form of `transaction` (and of `renewalInfo`).
    public nonisolated func signedUpdate(_ transaction: StoreTransaction, renewalInfo: RenewalInfo? = nil,
                                  purchaseId: String? = nil) -> TransactionUpdate {
        TransactionUpdate(transaction: transaction, jwsRepresentation: signatures.sign(transaction),
                          renewalInfo: renewalInfo.map(signatures.signed), purchaseId: purchaseId)
    }

    /// The test's clock is the store's: the engine reads time from its backend.
    public nonisolated var clock: StoreClock { testClock.storeClock }

    /// False while ``restrictPayments(_:)`` holds payments restricted.
    public var canMakePayments: Bool { !paymentsRestricted }

    /// The storefront StoreKit would report: `FRA`.
    public var storefront: String? { "FRA" }

    /// Turns parental controls on (`true`) or off.
    public func restrictPayments(_ restricted: Bool) { paymentsRestricted = restricted }

    /// What the next purchase does instead of buying.
    public func setNext(_ next: NextPurchase) { self.next = next }
    /// The next `times` calls of `finish` fail with a network error.
    public func failFinish(times: Int) { finishFailures = times }
    /// The next `times` restores fail with a network error.
    public func failRestore(times: Int) { restoreFailures = times }
    /// The next `times` subscription status requests fail with a network error.
    public func failStatus(times: Int) { statusFailures = times }

    // MARK: StoreBackend

    /// The catalog's products among `ids`, and the ids it does not sell.
    public func products(for ids: [String]) async throws -> BackendProducts {
        productRequests += 1
        return BackendProducts(products: ids.compactMap { catalog.product($0) },
                        invalidProductIds: ids.filter { catalog.product($0) == nil })
    }

    /// Buys as ``setNext(_:)`` says: a new transaction (a non-consumable owned answers its transaction, a
    /// downgrade is scheduled for the renewal), a pending Ask to Buy, a cancel or a failure.
    public func purchase(_ request: PurchaseRequest) async throws -> BackendPurchaseResult {
        guard catalog.product(request.productId) != nil else {
            throw StoreError(.productUnavailable, "\(request.productId) is not sold")
        }
        let next = self.next
        self.next = .buy
        switch next {
        case .cancel: return .cancelled
        case .fail(let error): throw error
        case .askToBuy:
            nextNumber += 1
            let purchaseId = "purchase-\(nextNumber)"
            pending[purchaseId] = request
            return .pending(purchaseId: purchaseId)
        case .buy:
            if let answer = subscriptionChange(request) { return .purchased(answer) }
            if catalog.product(request.productId)?.kind == .nonConsumable,
               let owned = transactions.first(where: { $0.productId == request.productId && !$0.isRevoked }) {
                return .purchased(signedUpdate(owned))
            }
            let transaction = record(request, reason: .purchase)
            return .purchased(signedUpdate(transaction, renewalInfo: renewalInfo(for: transaction)))
        }
    }

    /// Owned non-consumables and each subscription chain's latest transaction; never consumables.
    public func restore() async throws -> [TransactionUpdate] {
        restoreCount += 1
        if restoreFailures > 0 {
            restoreFailures -= 1
            throw StoreError(.networkError, "restore: the network is down")
        }
        var latestByChain: [String: StoreTransaction] = [:]
        for transaction in transactions where transaction.type == .autoRenewable {
            latestByChain[transaction.originalTransactionId] = transaction
        }
        let latest = Set(latestByChain.values.map(\.transactionId))
        return transactions.filter { transaction in
            transaction.type == .nonConsumable && !transaction.isRevoked || latest.contains(transaction.transactionId)
        }.map { signedUpdate($0) }
    }

    /// The transactions delivered and not finished yet, oldest first.
    public func unfinished() async throws -> [TransactionUpdate] {
        unfinishedIds.compactMap { id in transactions.first { $0.transactionId == id } }
            .map { signedUpdate($0) }
    }

    /// Stops delivering the transaction (unless ``failFinish(times:)`` makes this call fail).
    public func finish(transactionId: String) async throws {
        finishCount += 1
        if finishFailures > 0 {
            finishFailures -= 1
            throw StoreError(.networkError, "finish \(transactionId): the network is down")
        }
        unfinishedIds.removeAll { $0 == transactionId }
    }

    /// Each chain's current renewal info, signed, then those ``answerStatusAsIs(_:)`` added.
    public func subscriptionStatuses() async throws -> [SignedRenewalInfo] {
        statusRequests += 1
        if statusFailures > 0 {
            statusFailures -= 1
            throw StoreError(.networkError, "subscription status: the network is down")
        }
        return renewalInfos.keys.sorted().compactMap { renewalInfos[$0].map(signatures.signed) } + statusesAsIs
    }

    /// Approvals, renewals, refunds and purchases elsewhere, as they happen; one stream per call.
    public nonisolated func transactionUpdates() -> AsyncStream<TransactionUpdate> {
        listeners.add()
    }

    // MARK: Driving the store

    /// A parent approves an Ask to Buy purchase: the transaction waits unfinished and goes to listeners.
    @discardableResult
    public func approve(_ purchaseId: String, announcingPurchaseId: Bool = false) -> StoreTransaction? {
        guard let request = pending.removeValue(forKey: purchaseId) else { return nil }
        let transaction = record(request, reason: .purchase)
        broadcast(signedUpdate(transaction, purchaseId: announcingPurchaseId ? purchaseId : nil))
        return transaction
    }

    /// Refunds a transaction: its record gets a revocation date and goes out again.
    @discardableResult
    public func refund(_ transactionId: String) -> StoreTransaction? {
        guard let index = transactions.firstIndex(where: { $0.transactionId == transactionId }) else { return nil }
        transactions[index].revocationDate = testClock.now
        transactions[index].revocationReason = .other
        transactions[index].signedDate = testClock.now
        unfinishedIds.append(transactionId)
        broadcast(signedUpdate(transactions[index]))
        return transactions[index]
    }

    /// Renews the subscription chain of `originalTransactionId` for another month.
    @discardableResult
    public func renew(_ originalTransactionId: String) -> StoreTransaction? {
        guard let last = transactions.last(where: { $0.originalTransactionId == originalTransactionId }) else {
            return nil
        }
        let next = renewalInfos[originalTransactionId]?.autoRenewProductId ?? last.productId
        var request = PurchaseRequest(productId: next)
        request.appAccountToken = last.appAccountToken.flatMap(UUID.init(uuidString:))
        let renewal = record(request, reason: .renewal, original: last)
        broadcast(signedUpdate(renewal, renewalInfo: renewalInfo(for: renewal)))
        return renewal
    }

    /// Delivers a transaction again, as a store does when it lost track of a finish.
    public func redeliver(_ transactionId: String) {
        guard let transaction = transactions.first(where: { $0.transactionId == transactionId }) else { return }
        unfinishedIds.append(transactionId)
        broadcast(signedUpdate(transaction))
    }

    /// Answers `signed` as it is in every later subscription status, after the store's own renewal infos.
    public func answerStatusAsIs(_ signed: SignedRenewalInfo) {
        statusesAsIs.append(signed)
    }

    /// Sends an update exactly as given (its signed form included), as a broken or hostile store might.
    public func sendAsIs(_ update: TransactionUpdate) {
        broadcast(update)
    }

    /// Sends a copy of a transaction as it is (an old copy, arriving late).
    public func send(_ transaction: StoreTransaction) {
        broadcast(signedUpdate(transaction))
    }

    /// A purchase made on another device of the account: it reaches every listening store.
    @discardableResult
    public func buyElsewhere(_ productId: String) -> StoreTransaction {
        let transaction = record(PurchaseRequest(productId: productId), reason: .purchase)
        broadcast(signedUpdate(transaction))
        return transaction
    }

    /// The customer turns auto-renew off: the chain's renewal info goes out with its latest transaction.
    @discardableResult
    public func turnOffAutoRenew(_ originalTransactionId: String) -> RenewalInfo? {
        guard let last = transactions.last(where: { $0.originalTransactionId == originalTransactionId }) else {
            return nil
        }
        let info = RenewalInfo(originalTransactionId: originalTransactionId, productId: last.productId,
                               autoRenewStatus: .off, signedDate: testClock.now, renewalDate: last.expiresDate)
        renewalInfos[originalTransactionId] = info
        broadcast(signedUpdate(last, renewalInfo: info))
        return info
    }

    /// Changes a chain's renewal info in the store only, with no transaction (as the App Store does when the
    /// customer turns auto-renew off or schedules a downgrade in Settings).
    @discardableResult
    public func changeRenewal(of originalTransactionId: String, autoRenewStatus: AutoRenewStatus,
                       autoRenewProductId: String? = nil) -> RenewalInfo? {
        guard var info = renewalInfos[originalTransactionId] else { return nil }
        info.autoRenewStatus = autoRenewStatus
        info.autoRenewProductId = autoRenewProductId ?? info.productId
        info.signedDate = testClock.now
        renewalInfos[originalTransactionId] = info
        return info
    }

    /// Listeners currently attached (one per running store).
    public nonisolated var listenerCount: Int { listeners.count }

    // MARK: Internals

    private func record(_ request: PurchaseRequest, reason: TransactionReason, original: StoreTransaction? = nil)
        -> StoreTransaction {
        nextNumber += 1
        let product = catalog.product(request.productId)
        let now = testClock.now
        let start = original?.expiresDate ?? now
        let transaction = StoreTransaction(
            transactionId: String(nextNumber), originalTransactionId: original?.originalTransactionId,
            bundleId: bundleId, productId: request.productId,
            subscriptionGroupIdentifier: product?.subscription?.groupId, purchaseDate: original == nil ? now : start,
            originalPurchaseDate: original?.originalPurchaseDate ?? now,
            expiresDate: product?.subscription.map { $0.period.advance(start) },
            quantity: request.quantity, type: product?.kind.transactionType ?? .consumable,
            appAccountToken: request.appAccountToken?.uuidString.lowercased(), signedDate: now,
            transactionReason: reason)
        var stored = transaction
        // The group's introductory offer, once per account, as the App Store applies it.
        if reason == .purchase, let group = product?.subscription?.groupId, product?.subscription?.introductoryOffer != nil,
           !transactions.contains(where: { $0.subscriptionGroupIdentifier == group && $0.offerType == .introductory }) {
            stored.offerType = .introductory
        }
        transactions.append(stored)
        unfinishedIds.append(stored.transactionId)
        return stored
    }

    /// Buying another product of a group already subscribed to, as the App Store does: an upgrade starts now
    /// (nil here: bought as a new period), a downgrade is scheduled for the renewal (the transaction in force comes
    /// back with renewal info naming the new product), and the product in force bought again cancels a
    /// scheduled change.
    private func subscriptionChange(_ request: PurchaseRequest) -> TransactionUpdate? {
        guard let wanted = catalog.product(request.productId), let group = wanted.subscription?.groupId,
              let latest = transactions.last(where: { $0.subscriptionGroupIdentifier == group && !$0.isRevoked }),
              let expires = latest.expiresDate, expires > testClock.now,
              let current = catalog.product(latest.productId),
              var info = renewalInfos[latest.originalTransactionId] else { return nil }
        switch SubscriptionChange.classify(from: current, to: wanted) {
        case .downgrade, .crossgradeAtRenewal:
            info.autoRenewProductId = wanted.id
        case .same:
            info.autoRenewProductId = wanted.id
            info.autoRenewStatus = .on
        case .upgrade, .crossgradeImmediate, .unrelated:
            return nil
        }
        info.signedDate = testClock.now
        renewalInfos[latest.originalTransactionId] = info
        return signedUpdate(latest, renewalInfo: info)
    }

    /// The renewal info of a chain as the store has it now.
    public func renewalInfo(of originalTransactionId: String) -> RenewalInfo? { renewalInfos[originalTransactionId] }

    /// Changes a chain's renewal info in the store only (billing retry, grace), as the App Store does when a
    /// renewal fails.
    public func setRenewalInfo(_ info: RenewalInfo) { renewalInfos[info.originalTransactionId] = info }

    /// Auto-renew on for a subscription transaction; nil for other products.
    private func renewalInfo(for transaction: StoreTransaction) -> RenewalInfo? {
        guard transaction.type == .autoRenewable else { return nil }
        let info = RenewalInfo(originalTransactionId: transaction.originalTransactionId, productId: transaction.productId,
                           autoRenewStatus: .on, signedDate: transaction.signedDate,
                           renewalDate: transaction.expiresDate)
        renewalInfos[transaction.originalTransactionId] = info
        return info
    }

    private func broadcast(_ update: TransactionUpdate) {
        listeners.yield(update)
    }
}
