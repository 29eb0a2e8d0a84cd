import Foundation
import TallyCore
#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
import UIKit
#endif


/// The store the engine talks to: TallySandbox in tools and tests, later the App Store on Apple platforms and
/// the Tally server. The engine never imports an implementation; an adapter conforms to this protocol.
///
/// Throw ``StoreError`` for the failures an app must tell apart (purchase not allowed, product unavailable,
/// network, verification); the engine reports any other error as ``StoreError/Code/backend``.
public protocol StoreBackend: Sendable {
    /// The products the store sells among `ids`, and the ids it does not know.
    func products(for ids: [String]) async throws -> BackendProducts

    /// Starts a purchase and returns how it ended. A purchased transaction is not finished yet: the engine
    /// finishes it after writing its effect.
    func purchase(_ request: PurchaseRequest) async throws -> BackendPurchaseResult

    /// Restores purchases (StoreKit's `AppStore.sync()`): owned non-consumables, the latest transaction of
    /// each subscription, non-renewing purchases — never consumables. Nothing to restore is `[]`.
    func restore() async throws -> [TransactionUpdate]

    /// Transactions delivered to this device and not finished yet, oldest first (StoreKit's
    /// `Transaction.unfinished`). The engine asks once at launch, before listening to updates.
    func unfinished() async throws -> [TransactionUpdate]

    /// Marks a transaction delivered: the store stops delivering it to this device.
    func finish(transactionId: String) async throws

    /// Transactions that happen outside a purchase call (StoreKit's `Transaction.updates`): Ask to Buy
    /// approvals, renewals, refunds, purchases on other devices. The engine calls this once, at creation.
    func transactionUpdates() -> AsyncStream<TransactionUpdate>

    /// The latest renewal info of each of this account's subscription chains, one per original transaction id
    /// (StoreKit's `Product.SubscriptionInfo.status`). Renewal info changes without a transaction (auto-renew
    /// turned off, a downgrade scheduled, billing retry or grace starting), so the engine asks for it in
    /// ``Store/refreshSubscriptionStatus()``. Each comes with its signed form; only one whose signed form
    /// verifies (``TransactionVerifier/verifiedRenewalInfo(_:)``) counts. A backend that cannot answer keeps the
    /// default, `[]`.
    func subscriptionStatuses() async throws -> [SignedRenewalInfo]

    /// Whether this account may make purchases (StoreKit's `AppStore.canMakePayments`): false under parental
    /// controls or Screen Time restrictions. Hide the buy buttons when false.
    var canMakePayments: Bool { get async }

    /// The customer's storefront as StoreKit's `Storefront.countryCode` (ISO 3166-1 alpha-3, `USA`), sent with
    /// ``Store/offerings(placement:)`` for the server's targeting by storefront; nil when unknown.
    var storefront: String? { get async }

    /// The store's current time, which the ownership rules read: a renewal, expiry or refund counts once the
    /// store's clock has reached its date. StoreKit's is the wall clock (the default); a simulated store with
    /// its own clock (the sandbox after `tally sandbox advance`) supplies it here, so app and store agree.
    var clock: StoreClock { get }

    /// Checks the signed form of every transaction and renewal info this store delivers, restores or reports, and
    /// of every one the engine reads back from its customer file at launch: only a transaction whose
    /// ``TransactionUpdate/jwsRepresentation`` verifies, and a renewal info whose
    /// ``SignedRenewalInfo/jwsRepresentation`` verifies, count toward what the customer owns. No default: a
    /// backend that cannot verify cannot grant.
    var transactionVerifier: any TransactionVerifier { get }

    /// Ids of this account's pending purchases the store ended without a transaction (an Ask to Buy a parent
    /// declined), oldest first. The engine asks at launch, after ``unfinished()``, when it holds pending
    /// purchases; an id it does not hold as pending is ignored, so answering the same id again is harmless.
    /// The default is none.
    func declinedPurchases() async throws -> [String]

    /// Declines as they happen after launch, as purchase ids (the counterpart of ``transactionUpdates()``).
    /// The engine calls this once, at creation. The default stream ends at once.
    func purchaseDeclines() -> AsyncStream<String>

    /// What the backend left out of an answer because it could not read it (a transaction whose payload does not
    /// decode, a product's period or offer of a kind this version does not know), one sentence each naming it;
    /// the rest of the answer was used. The engine calls this once, at creation, and reports each as a
    /// ``StoreDiagnostic/Kind/backendProblem`` in ``Store/diagnostics``. The default stream ends at once.
    func problems() -> AsyncStream<String>

    /// Renewal infos as they change after launch, without a transaction (StoreKit's
    /// `Product.SubscriptionInfo.Status.updates`, iOS 17 / macOS 14 and later): auto-renew turned off, a downgrade
    /// scheduled, billing retry or grace starting. The engine calls this once, at creation, and applies each as
    /// ``Store/refreshSubscriptionStatus()`` does (only one whose signed form verifies counts; one it already holds
    /// changes nothing), so the app needs no polling where the store pushes. The default stream ends at once.
    func renewalInfoUpdates() -> AsyncStream<SignedRenewalInfo>

    /// Every transaction of this account the store knows, in its latest form (StoreKit's `Transaction.all`): the
    /// history behind ``Store/transactionHistory()``. Each comes with its signed form; only one that verifies is
    /// shown. The default is none: a backend that cannot list its history.
    func allTransactions() async throws -> [TransactionUpdate]

    /// Which offers of subscription group `groupId` the customer may have, as the store decides it
    /// (`Product.SubscriptionInfo.isEligibleForIntroOffer(for:)`, `RenewalInfo.eligibleWinBackOfferIDs`); nil when
    /// the backend cannot tell, and the engine decides from the customer's history.
    func offerEligibility(groupId: String) async throws -> OfferEligibility?

    // What the App Store starts or shows outside a purchase call; defaults in StoreBackend+AppStoreSheets.swift.

    /// Purchases the customer started in the App Store (promoted in-app purchases: StoreKit's
    /// `PurchaseIntent.intents`), as they arrive; one waiting from before the call comes first. Each call listens
    /// anew (``Store/promotedPurchases()`` calls it). The default stream ends at once.
    func purchaseIntents() -> AsyncStream<PromotedPurchase>

    /// The App Store's messages for the customer (StoreKit's `Message.messages`: billing issues, price increases),
    /// as they arrive; while one is listened to, the store shows none on its own. Each call listens anew
    /// (``Store/storeMessages()`` calls it). The default stream ends at once.
    func storeMessages() -> AsyncStream<StoreMessage>

#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
    /// Shows the App Store's manage-subscriptions sheet in `scene` (StoreKit's
    /// `AppStore.showManageSubscriptions(in:)`), for `subscriptionGroupId` alone when given. The default throws
    /// ``StoreError/Code/backend``.
    @MainActor func showManageSubscriptions(in scene: UIWindowScene, subscriptionGroupId: String?) async throws

    /// Shows the App Store's offer-code redemption sheet in `scene` (StoreKit's
    /// `AppStore.presentOfferCodeRedeemSheet(in:)`); a redeemed code arrives as a transaction update. The default
    /// throws ``StoreError/Code/backend``.
    @MainActor func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws

    /// Shows the App Store's refund request sheet for one transaction in `scene` (StoreKit's
    /// `Transaction.beginRefundRequest(for:in:)`). The default throws ``StoreError/Code/backend``.
    @MainActor func beginRefundRequest(transactionId: String, in scene: UIWindowScene) async throws
        -> RefundRequestOutcome

    /// Shows one of the messages ``storeMessages()`` delivered, in `scene` (StoreKit's `Message.display(in:)`).
    /// The default throws ``StoreError/Code/backend``.
    @MainActor func display(_ message: StoreMessage, in scene: UIWindowScene) async throws
#endif
}

extension StoreBackend {
    /// No renewal info: for backends that learn it only with transactions.
    public func subscriptionStatuses() async throws -> [SignedRenewalInfo] { [] }

    /// Purchases allowed: for backends that cannot tell.
    public var canMakePayments: Bool { get async { true } }

    /// None: the server's offerings are asked without a storefront.
    public var storefront: String? { get async { nil } }

    /// The wall clock, as StoreKit's.
    public var clock: StoreClock { .system }

    /// No declines: for backends without Ask to Buy.
    public func declinedPurchases() async throws -> [String] { [] }

    /// A stream that ends at once: for backends without Ask to Buy.
    public func purchaseDeclines() -> AsyncStream<String> { AsyncStream { $0.finish() } }

    /// A stream that ends at once: for backends that never leave anything out.
    public func problems() -> AsyncStream<String> { AsyncStream { $0.finish() } }

    /// A stream that ends at once: for backends whose renewal infos change only with transactions or on request.
    public func renewalInfoUpdates() -> AsyncStream<SignedRenewalInfo> { AsyncStream { $0.finish() } }

    /// No history: for backends that cannot list it.
    public func allTransactions() async throws -> [TransactionUpdate] { [] }

    /// Nil: the engine decides from the customer's history.
    public func offerEligibility(groupId: String) async throws -> OfferEligibility? { nil }
}
