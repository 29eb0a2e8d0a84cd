#if os(Linux)
import Foundation
@_spi(Scripting) import StoreKit
import Synchronization
import Tally
import TallyCore
import TallySandbox
import TallyStoreKit
import TallyVerify

/// The StoreKit backend over the scripted stand-in. This world plays the App Store behind StoreKit: it mints the
/// transactions a purchase or an approval makes, signs them with a test authority (the backend's
/// ``AppStoreVerifier`` trusts its root, as it trusts Apple's in an app) and scripts what StoreKit answers:
/// `purchase(options:)`, `Transaction.updates`, `unfinished`, `currentEntitlements`, `all`, statuses (and their
/// `Status.updates`), `canMakePayments`.
/// The script is one per process: suites using this world are `.serialized`.
final class StoreKitWorld: BackendWorld {
    let name = "StoreKit stand-in"
    let market: Market
    let reportsDeclines = false
    let verifier: AppStoreVerifier
    /// The test authority's root, which ``verifier`` trusts.
    let root: Certificate?
    private let signer: SandboxSigner
    private let forger: SandboxSigner
    private let script = StoreKitScript.shared

    private struct Pending: Sendable {
        var productId: String
        var quantity: Int
        var token: UUID?
    }

    private struct State: Sendable {
        var nextId: UInt64 = 2_000_000_000_000_001
        var askToBuy = false
        var cancelNext = false
        var forgeNext = false
        var pending: [Pending] = []
        var sold: [String: TallyCore.StoreTransaction] = [:]
        var renewals: [String: RenewalInfo] = [:]
    }

    private let state = Mutex(State())

    init() throws {
        market = try Market.load()
        let authority = try SandboxCertificateAuthority.generate(now: Date())
        signer = try authority.signer()
        forger = try SandboxCertificateAuthority.generate(now: Date()).signer()
        guard let root = Certificate(der: authority.rootDER) else { throw StoreError(.backend, "test root") }
        self.root = root
        verifier = try AppStoreVerifier(bundleId: market.configuration.bundleId, environments: [.sandbox],
                                        rootCertificates: [Data(root.der)])
        script.reset()
        let products = market.catalog.products.map(Self.storeKitProduct)
        script.script { answers in
            answers.products = products
            answers.purchase = { [weak self] product, options in
                guard let self else { throw StoreKitError.unknown }
                return try self.answerPurchase(product, options: options)
            }
        }
    }

    func launch() throws -> any StoreBackend { StoreKitBackend(catalog: market.catalog, verifier: verifier) }

    func enableAskToBuy() throws { state.withLock { $0.askToBuy = true } }
    func cancelNextPurchase() throws { state.withLock { $0.cancelNext = true } }
    func forgeNextPurchase() throws { state.withLock { $0.forgeNext = true } }
    func forbidPayments() throws { script.script { $0.canMakePayments = false } }
    func unfinishedCount() throws -> Int { script.answers.unfinished.count }

    func approveOldestPending() throws {
        let pending = try state.withLock { state in
            guard !state.pending.isEmpty else { throw StoreError(.backend, "nothing pending") }
            return state.pending.removeFirst()
        }
        let transaction = try sell(pending.productId, quantity: pending.quantity, token: pending.token)
        script.pushUpdate(.verified(transaction))
    }

    /// StoreKit makes no transaction for a declined Ask to Buy, and tells the app nothing.
    func declineOldestPending() throws {
        try state.withLock { state in
            guard !state.pending.isEmpty else { throw StoreError(.backend, "nothing pending") }
            state.pending.removeFirst()
        }
    }

    func refund(transactionId: String) throws {
        guard var refunded = state.withLock({ $0.sold[transactionId] }) else {
            throw StoreError(.backend, "no transaction \(transactionId) was sold")
        }
        refunded.revocationDate = Date()
        refunded.revocationReason = .other
        refunded.signedDate = Date()
        let signed = try StoreKit.Transaction(jwsRepresentation: try signer.signTransaction(refunded))
        state.withLock { $0.sold[transactionId] = refunded }
        script.script { answers in
            answers.currentEntitlements.removeAll { String($0.unsafePayloadValue.id) == transactionId }
            answers.unfinished.append(.verified(signed))
            // Transaction.all holds each transaction in its latest form: the refunded one replaces the sale.
            answers.all = answers.all.map { String($0.unsafePayloadValue.id) == transactionId ? .verified(signed) : $0 }
        }
        if let group = refunded.subscriptionGroupIdentifier {
            try scriptStatus(group: group, transaction: signed, state: .revoked, autoRenew: .off)
        }
        script.pushUpdate(.verified(signed))
    }

    /// A renewal transaction (a new id on the same chain, a period after the current expiry) pushed on
    /// `Transaction.updates`, as StoreKit delivers renewals.
    func renew(productId: String) throws {
        guard let current = state.withLock({ state in
            state.sold.values.filter { $0.productId == productId && !$0.isRevoked }
                .max { ($0.expiresDate ?? .distantPast) < ($1.expiresDate ?? .distantPast) }
        }), let expires = current.expiresDate, let period = try market.product(productId).subscription?.period else {
            throw StoreError(.backend, "no subscription to \(productId) to renew")
        }
        var renewal = try mint(productId, quantity: 1, token: nil)
        renewal.originalTransactionId = current.originalTransactionId
        renewal.originalPurchaseDate = current.originalPurchaseDate
        renewal.purchaseDate = Date()
        renewal.expiresDate = period.advance(expires)
        renewal.transactionReason = .renewal
        let transaction = try StoreKit.Transaction(jwsRepresentation: try signer.signTransaction(renewal))
        state.withLock { $0.sold[renewal.transactionId] = renewal }
        script.script { answers in
            answers.unfinished.append(.verified(transaction))
            answers.all.append(.verified(transaction))
            answers.currentEntitlements.removeAll { $0.unsafePayloadValue.productID == productId }
            answers.currentEntitlements.append(.verified(transaction))
        }
        try scriptStatus(group: renewal.subscriptionGroupIdentifier ?? "", transaction: transaction, state: .subscribed,
                         autoRenew: .on)
        script.pushUpdate(.verified(transaction))
    }

    func turnOffAutoRenew(productId: String) throws {
        guard let sold = state.withLock({ $0.sold.values.first { $0.productId == productId && !$0.isRevoked } }),
              let group = sold.subscriptionGroupIdentifier else {
            throw StoreError(.backend, "no subscription to \(productId)")
        }
        let transaction = try StoreKit.Transaction(jwsRepresentation: try signer.signTransaction(sold))
        try scriptStatus(group: group, transaction: transaction, state: .subscribed, autoRenew: .off)
    }

    /// The status StoreKit would push for the subscription to `productId` with auto-renew off, scripted nowhere:
    /// its renewal info signed by the trusted authority or, when `forged`, by a foreign one; StoreKit's verdict on
    /// the renewal info is `.verified` unless `storeKitRefuses`.
    func autoRenewOffStatus(productId: String, forged: Bool = false,
                            storeKitRefuses: Bool = false) throws -> StoreKit.Product.SubscriptionInfo.Status {
        guard let sold = state.withLock({ $0.sold.values.first { $0.productId == productId && !$0.isRevoked } }) else {
            throw StoreError(.backend, "no subscription to \(productId)")
        }
        let transaction = try StoreKit.Transaction(jwsRepresentation: try signer.signTransaction(sold))
        let info = RenewalInfo(originalTransactionId: sold.originalTransactionId, productId: productId,
                               autoRenewProductId: productId, autoRenewStatus: .off, signedDate: Date(),
                               environment: .sandbox)
        let renewal = try StoreKit.Product.SubscriptionInfo.RenewalInfo(
            jwsRepresentation: forged ? try forger.signRenewalInfo(info) : try signer.signRenewalInfo(info))
        return StoreKit.Product.SubscriptionInfo.Status(
            state: .subscribed, transaction: .verified(transaction),
            renewalInfo: storeKitRefuses ? .unverified(renewal, .invalidSignature) : .verified(renewal))
    }

    /// A purchase of the subscription `productId` whose period ended a day ago, unfinished (so the next launch
    /// delivers it), and the status StoreKit pushes when its renewal fails to bill: `inBillingRetryPeriod`, its
    /// renewal info (signed by the trusted authority) `isInBillingRetry` with auto-renew on.
    func lapsedSubscription(_ productId: String) throws
        -> (transaction: StoreKit.Transaction, billingRetry: StoreKit.Product.SubscriptionInfo.Status) {
        guard let period = try market.product(productId).subscription?.period else {
            throw StoreError(.backend, "\(productId) is not a subscription")
        }
        var start = Date().addingTimeInterval(-86_400)
        while period.advance(start) > Date().addingTimeInterval(-86_400) { start = start.addingTimeInterval(-86_400) }
        let minted = try mint(productId, quantity: 1, token: nil, at: start)
        let transaction = try StoreKit.Transaction(jwsRepresentation: try signer.signTransaction(minted))
        state.withLock { $0.sold[minted.transactionId] = minted }
        script.script { $0.unfinished.append(.verified(transaction)) }
        let info = RenewalInfo(originalTransactionId: minted.originalTransactionId, productId: productId,
                               autoRenewProductId: productId, autoRenewStatus: .on, isInBillingRetryPeriod: true,
                               signedDate: Date(), environment: .sandbox)
        let renewal = try StoreKit.Product.SubscriptionInfo.RenewalInfo(
            jwsRepresentation: try signer.signRenewalInfo(info))
        return (transaction, StoreKit.Product.SubscriptionInfo.Status(
            state: .inBillingRetryPeriod, transaction: .verified(transaction), renewalInfo: .verified(renewal)))
    }

    /// The status of `productId`'s group for a customer whose subscription expired, its renewal info (signed by
    /// the trusted authority; StoreKit's verdict `.verified` unless `storeKitRefuses`) naming the win-back offers
    /// `eligibleWinBackOfferIds` the App Store finds the customer eligible for.
    func expiredStatus(_ productId: String, eligibleWinBackOfferIds: [String],
                       storeKitRefuses: Bool = false) throws -> StoreKit.Product.SubscriptionInfo.Status {
        let minted = try mint(productId, quantity: 1, token: nil, at: Date().addingTimeInterval(-90 * 86_400))
        let transaction = try StoreKit.Transaction(jwsRepresentation: try signer.signTransaction(minted))
        let info = RenewalInfo(originalTransactionId: minted.originalTransactionId, productId: productId,
                               autoRenewProductId: productId, autoRenewStatus: .off,
                               expirationIntent: .customerCancelled,
                               signedDate: Date(), environment: .sandbox,
                               eligibleWinBackOfferIds: eligibleWinBackOfferIds)
        let renewal = try StoreKit.Product.SubscriptionInfo.RenewalInfo(
            jwsRepresentation: try signer.signRenewalInfo(info))
        return StoreKit.Product.SubscriptionInfo.Status(
            state: .expired, transaction: .verified(transaction),
            renewalInfo: storeKitRefuses ? .unverified(renewal, .invalidSignature) : .verified(renewal))
    }

    /// A transaction for `productId` that nothing records (for updates a test pushes itself), signed by the
    /// trusted authority or, when `forged`, by a foreign one.
    func loose(_ productId: String, quantity: Int = 1, forged: Bool = false) throws -> StoreKit.Transaction {
        let minted = try mint(productId, quantity: quantity, token: nil)
        let jws = forged ? try forger.signTransaction(minted) : try signer.signTransaction(minted)
        return try StoreKit.Transaction(jwsRepresentation: jws)
    }

    /// A transaction for `productId`, signed by the trusted authority, whose payload StoreKit reads but the engine's
    /// decoder does not (its `quantity` is a string, not a number).
    func undecodable(_ productId: String) throws -> StoreKit.Transaction {
        let minted = try mint(productId, quantity: 1, token: nil)
        var payload = try JSONSerialization.jsonObject(with: JSONEncoder().encode(minted)) as? [String: Any] ?? [:]
        payload["quantity"] = "one"
        let jws = try signer.sign(payloadJSON: JSONSerialization.data(withJSONObject: payload))
        return try StoreKit.Transaction(jwsRepresentation: jws)
    }

    // MARK: the App Store behind StoreKit

    private func answerPurchase(_ product: StoreKit.Product,
                                options: Set<StoreKit.Product.PurchaseOption>) throws -> StoreKit.Product.PurchaseResult {
        guard script.answers.canMakePayments else { throw StoreKit.Product.PurchaseError.purchaseNotAllowed }
        let quantity = options.compactMap(\.quantity).first ?? 1
        let token = options.compactMap(\.appAccountToken).first
        enum Answer { case cancel, pend, forge, sell }
        let answer: Answer = state.withLock { state in
            if state.cancelNext { state.cancelNext = false; return .cancel }
            if state.forgeNext { state.forgeNext = false; return .forge }
            if state.askToBuy {
                state.pending.append(Pending(productId: product.id, quantity: quantity, token: token))
                return .pend
            }
            return .sell
        }
        switch answer {
        case .cancel: return .userCancelled
        case .pend: return .pending
        case .forge:
            let forged = try mint(product.id, quantity: quantity, token: token)
            let transaction = try StoreKit.Transaction(jwsRepresentation: try forger.signTransaction(forged))
            return .success(.unverified(transaction, .invalidSignature))
        case .sell:
            return .success(.verified(try sell(product.id, quantity: quantity, token: token)))
        }
    }

    /// Mints, signs and records a sale: unfinished until finished, an entitlement unless consumable, a status for
    /// an auto-renewable.
    private func sell(_ productId: String, quantity: Int, token: UUID?) throws -> StoreKit.Transaction {
        let minted = try mint(productId, quantity: quantity, token: token)
        let transaction = try StoreKit.Transaction(jwsRepresentation: try signer.signTransaction(minted))
        state.withLock { $0.sold[minted.transactionId] = minted }
        script.script { answers in
            answers.unfinished.append(.verified(transaction))
            answers.all.append(.verified(transaction))
            if minted.type != .consumable {
                answers.currentEntitlements.removeAll { $0.unsafePayloadValue.productID == productId }
                answers.currentEntitlements.append(.verified(transaction))
            }
        }
        if let group = minted.subscriptionGroupIdentifier {
            try scriptStatus(group: group, transaction: transaction, state: .subscribed, autoRenew: .on)
        }
        return transaction
    }

    private func mint(_ productId: String, quantity: Int, token: UUID?,
                      at now: Date = Date()) throws -> TallyCore.StoreTransaction {
        let product = try market.product(productId)
        let id = state.withLock { state in
            defer { state.nextId += 1 }
            return String(state.nextId)
        }
        return TallyCore.StoreTransaction(
            transactionId: id, originalTransactionId: id, bundleId: market.configuration.bundleId, productId: productId,
            subscriptionGroupIdentifier: product.subscription?.groupId, purchaseDate: now, originalPurchaseDate: now,
            expiresDate: product.subscription.map { $0.period.advance(now) }, quantity: quantity,
            type: product.kind.transactionType, appAccountToken: token?.uuidString.lowercased(), signedDate: now,
            environment: .sandbox, transactionReason: .purchase)
    }

    private func scriptStatus(group: String, transaction: StoreKit.Transaction,
                              state renewalState: StoreKit.Product.SubscriptionInfo.RenewalState,
                              autoRenew: AutoRenewStatus) throws {
        let info = RenewalInfo(originalTransactionId: String(transaction.originalID),
                               productId: transaction.productID, autoRenewProductId: transaction.productID,
                               autoRenewStatus: autoRenew, signedDate: Date(), environment: .sandbox)
        let renewal = try StoreKit.Product.SubscriptionInfo.RenewalInfo(
            jwsRepresentation: try signer.signRenewalInfo(info))
        let status = StoreKit.Product.SubscriptionInfo.Status(state: renewalState, transaction: .verified(transaction),
                                                               renewalInfo: .verified(renewal))
        script.script { $0.statuses[group] = [status] }
        // StoreKit pushes each status change on `Product.SubscriptionInfo.Status.updates`.
        script.pushStatusUpdate(status)
    }

    /// The Market's product as StoreKit would answer it, its price formatted as StoreKit does for en_US.
    static func storeKitProduct(_ product: TallyCore.CatalogProduct) -> StoreKit.Product {
        let type: StoreKit.Product.ProductType = switch product.kind {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .nonRenewing: .nonRenewable
        case .autoRenewable: .autoRenewable
        }
        func offer(_ offer: TallyCore.SubscriptionOffer,
                   type: StoreKit.Product.SubscriptionOffer.OfferType) -> StoreKit.Product.SubscriptionOffer {
            StoreKit.Product.SubscriptionOffer(
                id: type == .introductory ? nil : offer.id, type: type, price: offer.price,
                displayPrice: TallyCore.CatalogProduct.formatPrice(offer.price, currency: product.currency,
                                                            locale: "en_US"),
                paymentMode: offer.paymentMode == .freeTrial ? .freeTrial
                    : offer.paymentMode == .payUpFront ? .payUpFront : .payAsYouGo,
                period: period(offer.period), periodCount: offer.periodCount)
        }
        let subscription = product.subscription.map { info in
            StoreKit.Product.SubscriptionInfo(
                subscriptionGroupID: info.groupId, subscriptionPeriod: period(info.period),
                introductoryOffer: info.introductoryOffer.map { offer($0, type: .introductory) },
                promotionalOffers: info.promotionalOffers.map { offer($0, type: .promotional) },
                winBackOffers: info.winBackOffers.map { offer($0, type: .winBack) },
                groupLevel: info.level)
        }
        let localization = product.localization(for: "en_US")
        return StoreKit.Product(id: product.id, type: type, displayName: localization?.displayName ?? product.id,
                                description: localization?.description ?? "", price: product.price,
                                currencyCode: product.currency, displayPrice: product.displayPrice(locale: "en_US"),
                                subscription: subscription, isFamilyShareable: product.familyShareable)
    }

    static func period(_ period: TallyCore.SubscriptionDuration) -> StoreKit.Product.SubscriptionPeriod {
        let unit: StoreKit.Product.SubscriptionPeriod.Unit = switch period.unit {
        case .day: .day
        case .week: .week
        case .month: .month
        case .year: .year
        }
        return StoreKit.Product.SubscriptionPeriod(value: period.value, unit: unit)
    }
}
#endif
