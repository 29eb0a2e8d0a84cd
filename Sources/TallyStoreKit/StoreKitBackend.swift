#if canImport(StoreKit)
import Foundation
import StoreKit
import Tally
import TallyCore
#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif

/// The engine's backend over Apple's StoreKit 2, for a shipping app: products from `Product.products(for:)`,
/// purchases through `purchase(options:)`, `Transaction.updates` listened to from the engine's start,
/// `Transaction.unfinished` delivered at launch (StoreKit's updates deliver them again at launch; the engine credits
/// a transaction once), `finish()` only once the engine has durably written the effect
/// (the engine calls ``finish(transactionId:)`` after its write), restore as `AppStore.sync()` then
/// `Transaction.currentEntitlements`, renewal infos from `Product.SubscriptionInfo.status(for:)` and, from iOS 17,
/// `Product.SubscriptionInfo.Status.updates`, the history from `Transaction.all`, and the wall clock.
///
/// Two gates before anything counts: StoreKit's own verdict (a `.unverified` result is never passed on: a purchase
/// throws ``StoreError/Code/verificationFailed``, an update or restore leaves it out), then the engine's
/// ``transactionVerifier`` on the JWS, at delivery and each time the customer file is read back.
///
/// The same source compiles against Apple's StoreKit and, on Linux, against the stand-in in Tests/StoreKitStandIn;
/// its behaviour is tested against the stand-in's scripted answers only — not yet run on an Apple device.
///
/// On visionOS, where StoreKit has no `purchase(options:)`, a purchase is confirmed in the scene the app gives
/// (``confirmationScene``: `purchase(confirmIn:options:)`, also used on iOS 17 / tvOS 17 and later when given);
/// promoted purchases (`PurchaseIntent`) do not exist there. Not yet run on a visionOS device.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public actor StoreKitBackend: StoreBackend {
    /// Checks each JWS the engine keeps (see ``AppStoreVerifier``).
    public nonisolated let transactionVerifier: any TransactionVerifier
    /// The subscription groups whose renewal infos ``subscriptionStatuses()`` asks StoreKit for.
    public nonisolated let subscriptionGroupIDs: [String]
    /// StoreKit's transactions handed to the engine and not finished yet, by id: `finish()` is a method on them.
    private var delivered: [String: StoreKit.Transaction] = [:]
    /// The products StoreKit returned, by id: a purchase needs StoreKit's `Product` value.
    var known: [String: StoreKit.Product] = [:]
    /// What this backend left out, for ``problems()`` (one listener: the engine; kept until it listens).
    private nonisolated let problemStream: AsyncStream<String>
    private nonisolated let problemSink: AsyncStream<String>.Continuation
    /// StoreKit's messages handed to the engine and not shown yet (see StoreKitBackend+AppStoreSheets.swift).
    let messageShelf = StoreKitMessageShelf()
    #if canImport(UIKit) && !os(watchOS)
    /// The scene a purchase's confirmation sheet is shown in (`purchase(confirmIn:options:)`, iOS 17 / tvOS 17 /
    /// visionOS 1): required on visionOS, optional elsewhere (nil: `purchase(options:)`). Set it from the app's
    /// active window scene (``setConfirmationScene(_:)``).
    private var confirmationScene: (@MainActor @Sendable () -> UIScene?)?

    /// Where purchases are confirmed from now on (see ``confirmationScene``).
    public func setConfirmationScene(_ scene: (@MainActor @Sendable () -> UIScene?)?) {
        confirmationScene = scene
    }
    #endif

    /// A backend asking StoreKit about `subscriptionGroupIDs`' statuses, and verifying with `verifier`.
    public init(subscriptionGroupIDs: [String], verifier: any TransactionVerifier) {
        self.subscriptionGroupIDs = subscriptionGroupIDs
        transactionVerifier = verifier
        (problemStream, problemSink) = AsyncStream.makeStream(of: String.self)
    }

    /// Each transaction, period or offer left out because it does not decode, as a sentence naming it (the
    /// engine reports them in ``Store/diagnostics``). One stream for the backend's life: call it once.
    public nonisolated func problems() -> AsyncStream<String> { problemStream }

    /// Reports something left out.
    nonisolated func leftOut(_ problem: String) {
        problemSink.yield(problem)
    }

    /// A backend for the subscription groups of `catalog` (the app's `.storekit` file).
    public init(catalog: Catalog, verifier: any TransactionVerifier) {
        var seen = Set<String>()
        let groups = catalog.products.compactMap(\.subscription?.groupId).filter { seen.insert($0).inserted }
        self.init(subscriptionGroupIDs: groups, verifier: verifier)
    }

    /// The products StoreKit returns among `ids`, with StoreKit's `displayPrice` and, for each subscription group,
    /// its `isEligibleForIntroOffer`; an id it does not return is invalid (StoreKit omits unknown ids rather than
    /// naming them).
    public func products(for ids: [String]) async throws -> BackendProducts {
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        let found: [StoreKit.Product]
        do { found = try await StoreKit.Product.products(for: unique) } catch {
            throw Self.storeError(error, doing: "loading products \(unique.joined(separator: ", "))")
        }
        var byId: [String: StoreKit.Product] = [:]
        for product in found where byId[product.id] == nil { byId[product.id] = product }
        var products: [TallyCore.CatalogProduct] = []
        var displayPrices: [String: String] = [:]
        var invalid: [String] = []
        var ineligible = Set<String>()
        var askedGroups = Set<String>()
        var problems: [String] = []
        defer { for problem in problems { leftOut(problem) } }
        for id in unique {
            guard let storeKit = byId[id], let product = Self.product(storeKit, problems: &problems) else {
                invalid.append(id)
                continue
            }
            known[id] = storeKit
            products.append(product)
            displayPrices[id] = storeKit.displayPrice
            if let info = storeKit.subscription, askedGroups.insert(info.subscriptionGroupID).inserted,
               await !info.isEligibleForIntroOffer {
                ineligible.insert(info.subscriptionGroupID)
            }
        }
        return BackendProducts(products: products, invalidProductIds: invalid, displayPrices: displayPrices,
                               introOfferIneligibleGroups: ineligible)
    }

    /// Buys through `purchase(options:)` with `.appAccountToken`, `.quantity` (sent only when not 1) and the
    /// request's offer as StoreKit's offer options (see ``offerOptions(_:of:doing:)``).
    public func purchase(_ request: PurchaseRequest) async throws -> BackendPurchaseResult {
        let product: StoreKit.Product
        do {
            let cached = known[request.productId]
            let fetched = cached == nil ? try await StoreKit.Product.products(for: [request.productId]) : []
            guard let found = cached ?? fetched.first(where: { $0.id == request.productId }) else {
                throw StoreError(.productUnavailable, "purchase of \(request.productId): the App Store does not sell "
                    + "it (not returned by Product.products(for:))")
            }
            product = found
        } catch let error as StoreError { throw error } catch {
            throw Self.storeError(error, doing: "purchase of \(request.productId)")
        }
        var options: Set<StoreKit.Product.PurchaseOption> = []
        if let token = request.appAccountToken { options.insert(.appAccountToken(token)) }
        if request.quantity != 1 { options.insert(.quantity(request.quantity)) }
        if let offer = request.offer {
            options.formUnion(try Self.offerOptions(offer, of: product, doing: "purchase of \(request.productId)"))
        }
        let result: StoreKit.Product.PurchaseResult
        do { result = try await buy(product, options: options) } catch {
            if Self.isUserCancellation(error) { return .cancelled }
            throw Self.storeError(error, doing: "purchase of \(request.productId)")
        }
        switch result {
        case .success(let verification):
            guard case .verified(let transaction) = verification else {
                throw Self.unverified(verification, doing: "purchase of \(request.productId)")
            }
            let update = try await update(verification)
            delivered[String(transaction.id)] = transaction
            return .purchased(update)
        case .pending:
            // StoreKit gives a pending purchase no id; the engine matches the transaction that completes it by
            // product id and app account token.
            return .pending(purchaseId: UUID().uuidString.lowercased())
        case .userCancelled:
            return .cancelled
        @unknown default:
            throw StoreError(.backend, "purchase of \(request.productId): StoreKit answered a result this version "
                + "of Tally does not know")
        }
    }

    /// StoreKit's purchase call for this platform: confirmed in ``confirmationScene`` when there is one (and it is
    /// required on visionOS), else `purchase(options:)`.
    private func buy(_ product: StoreKit.Product, options: Set<StoreKit.Product.PurchaseOption>) async throws
        -> StoreKit.Product.PurchaseResult {
        #if canImport(UIKit) && !os(watchOS)
        if #available(iOS 17.0, tvOS 17.0, visionOS 1.0, *), let provider = confirmationScene,
           let scene = await provider() {
            return try await product.purchase(confirmIn: scene, options: options)
        }
        #endif
        #if os(visionOS)
        throw StoreError(.backend, "purchase of \(product.id): on visionOS a purchase is confirmed in a scene; "
            + "call setConfirmationScene(_:) with the app's window scene first")
        #else
        return try await product.purchase(options: options)
        #endif
    }

    /// `AppStore.sync()` (it shows a sign-in prompt: call on a user's action), then every verified
    /// `Transaction.currentEntitlements` (never consumables).
    public func restore() async throws -> [TransactionUpdate] {
        do { try await AppStore.sync() } catch {
            if Self.isUserCancellation(error) { throw StoreError(.cancelled, "restore: the customer cancelled the "
                + "App Store sign-in") }
            throw Self.storeError(error, doing: "restore (AppStore.sync)")
        }
        return await verifiedUpdates(StoreKit.Transaction.currentEntitlements)
    }

    /// The verified `Transaction.unfinished`, kept for ``finish(transactionId:)``.
    public func unfinished() async throws -> [TransactionUpdate] {
        await verifiedUpdates(StoreKit.Transaction.unfinished, remembering: true)
    }

    /// Calls `finish()` on StoreKit's transaction; one this backend did not hand over is looked up in
    /// `Transaction.unfinished`; one found in neither is finished already.
    public func finish(transactionId: String) async throws {
        if let transaction = delivered.removeValue(forKey: transactionId) {
            await transaction.finish()
            return
        }
        for await result in StoreKit.Transaction.unfinished where String(result.unsafePayloadValue.id) == transactionId {
            await result.unsafePayloadValue.finish()
            return
        }
    }

    /// `Transaction.updates`, subscribed to at this call (the engine makes it before reading `unfinished`): each
    /// verified transaction (Ask to Buy approvals, renewals, refunds, purchases elsewhere); unverified ones are
    /// left out and not finished.
    public nonisolated func transactionUpdates() -> AsyncStream<TransactionUpdate> {
        let updates = StoreKit.Transaction.updates
        return AsyncStream(TransactionUpdate.self) { continuation in
            let task = Task {
                for await result in updates {
                    guard case .verified = result else { continue }
                    do {
                        let update = try await self.remember(result)
                        continuation.yield(update)
                    } catch {
                        let id = result.unsafePayloadValue.id
                        self.leftOut("Transaction.updates: transaction \(id) was left out, not finished: \(error)")
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The verified renewal info of each chain in ``subscriptionGroupIDs``, from `status(for:)`.
    public func subscriptionStatuses() async throws -> [SignedRenewalInfo] {
        var infos: [SignedRenewalInfo] = []
        var chains = Set<UInt64>()
        for group in subscriptionGroupIDs {
            let statuses: [StoreKit.Product.SubscriptionInfo.Status]
            do { statuses = try await StoreKit.Product.SubscriptionInfo.status(for: group) } catch {
                throw Self.storeError(error, doing: "reading the status of subscription group \(group)")
            }
            for status in statuses {
                guard case .verified(let info) = status.renewalInfo, chains.insert(info.originalTransactionID).inserted
                else { continue }
                infos.append(try Self.signed(status.renewalInfo))
            }
        }
        return infos
    }

    /// `Product.SubscriptionInfo.Status.updates` (iOS 17 / macOS 14 / tvOS 17 / watchOS 10 and later, as Apple
    /// documents it), subscribed to at this call: the renewal info of each status StoreKit pushes (auto-renew turned
    /// off, billing retry, grace, a renewal), when StoreKit verified it; an unverified one or one that does not
    /// decode is left out and reported. Before iOS 17 the stream ends at once: the app calls
    /// ``Store/refreshSubscriptionStatus()`` there.
    public nonisolated func renewalInfoUpdates() -> AsyncStream<SignedRenewalInfo> {
        guard #available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *) else {
            return AsyncStream { $0.finish() }
        }
        let updates = StoreKit.Product.SubscriptionInfo.Status.updates
        return AsyncStream(SignedRenewalInfo.self) { continuation in
            let task = Task {
                for await status in updates {
                    let chain = status.renewalInfo.unsafePayloadValue.originalTransactionID
                    guard case .verified = status.renewalInfo else {
                        self.leftOut("Status.updates: StoreKit could not verify the renewal info of chain \(chain); "
                            + "left out")
                        continue
                    }
                    do { continuation.yield(try Self.signed(status.renewalInfo)) } catch {
                        self.leftOut("Status.updates: the renewal info of chain \(chain) was left out: \(error)")
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Every verified transaction of `Transaction.all`, in its latest form; an unverified one is left out, one that
    /// does not decode is left out and reported.
    public func allTransactions() async throws -> [TransactionUpdate] {
        await verifiedUpdates(StoreKit.Transaction.all)
    }

    /// `AppStore.canMakePayments`.
    public var canMakePayments: Bool {
        get async { AppStore.canMakePayments }
    }

    /// `Storefront.current?.countryCode`.
    public var storefront: String? {
        get async { await Storefront.current?.countryCode }
    }

    private func remember(_ result: VerificationResult<StoreKit.Transaction>) async throws(StoreError)
        -> TransactionUpdate {
        let update = try await update(result)
        delivered[String(result.unsafePayloadValue.id)] = result.unsafePayloadValue
        return update
    }

    private func verifiedUpdates(_ transactions: StoreKit.Transaction.Transactions,
                                 remembering: Bool = false) async -> [TransactionUpdate] {
        var updates: [TransactionUpdate] = []
        for await result in transactions {
            guard case .verified = result else { continue }
            // One that does not decode is left out and reported; the others are still delivered.
            do { updates.append(remembering ? try await remember(result) : try await update(result)) } catch {
                leftOut("transaction \(result.unsafePayloadValue.id) was left out, not finished: \(error.message)")
            }
        }
        return updates
    }

    /// The engine's form of a verified transaction: its payload decoded as the App Store's
    /// `JWSTransactionDecodedPayload` (which `jsonRepresentation` is), its JWS, and its chain's renewal info.
    private func update(_ result: VerificationResult<StoreKit.Transaction>) async throws(StoreError) -> TransactionUpdate {
        let transaction = result.unsafePayloadValue
        let decoded: TallyCore.StoreTransaction
        do {
            decoded = try JSONDecoder().decode(TallyCore.StoreTransaction.self, from: transaction.jsonRepresentation)
        } catch {
            throw StoreError(.verificationFailed, "transaction \(transaction.id): its JSON does not decode as the "
                + "App Store's transaction payload: \(error)")
        }
        var renewal: SignedRenewalInfo?
        if let status = await transaction.subscriptionStatus, case .verified = status.renewalInfo {
            renewal = try? Self.signed(status.renewalInfo)
        }
        return TransactionUpdate(transaction: decoded, jwsRepresentation: result.jwsRepresentation,
                                 renewalInfo: renewal)
    }

    private static func signed(
        _ result: VerificationResult<StoreKit.Product.SubscriptionInfo.RenewalInfo>
    ) throws(StoreError) -> SignedRenewalInfo {
        let info = result.unsafePayloadValue
        do {
            let decoded = try JSONDecoder().decode(TallyCore.RenewalInfo.self, from: info.jsonRepresentation)
            return SignedRenewalInfo(renewalInfo: decoded, jwsRepresentation: result.jwsRepresentation)
        } catch {
            throw StoreError(.verificationFailed, "the renewal info of chain \(info.originalTransactionID): its JSON "
                + "does not decode as the App Store's renewal info payload: \(error)")
        }
    }

    private static func unverified(_ result: VerificationResult<StoreKit.Transaction>,
                                   doing action: String) -> StoreError {
        guard case .unverified(let transaction, let error) = result else {
            return StoreError(.backend, "\(action): expected an unverified result")
        }
        return StoreError(.verificationFailed, "\(action): StoreKit could not verify transaction \(transaction.id) "
            + "(\(error)); nothing was delivered and it stays unfinished")
    }
}
#endif
