import Foundation
import TallyCore


extension Store {
    /// Buys a product. A bought product is delivered (written, finished, events emitted) before this returns.
    ///
    /// - Parameters:
    ///   - productId: the product to buy.
    ///   - quantity: how many (consumables); at least 1.
    ///   - appAccountToken: the UUID linking the purchase to the app's account; nil takes the link's
    ///     ``ServerLink/appAccountToken``, else the token the server minted for the link's customer (asked once,
    ///     then kept), else none.
    ///   - offer: the subscription offer to apply (``PurchaseOffer``): a promotional offer with its server-made
    ///     signature, a win-back offer, or an introductory offer eligibility JWS; the store refuses an offer it
    ///     does not accept (`invalidOfferSignature`, `invalidOfferIdentifier`, `invalidOfferPrice`,
    ///     `ineligibleForOffer`, `missingOfferParameters`).
    ///   - context: what the app wants back with the purchase (screen, offer); kept with a pending purchase,
    ///     even across restarts, and returned in ``StoreEvent/purchased(_:context:)`` when it is approved.
    /// - Returns: `.purchased` (for a product already owned, its existing transaction, not announced again),
    ///   `.pending` (Ask to Buy), `.changeScheduled` (a downgrade or crossgrade at the next renewal),
    ///   `.changeCancelled` (the subscription in force bought again, cancelling a scheduled change) or
    ///   `.cancelled` (not an error).
    ///
    /// With a ``ServerLink`` the purchase belongs to the link's customer when it is called: while it is open
    /// ``switchCustomer(to:appAccountToken:)`` is refused, and an Ask to Buy approved after a switch is posted
    /// for the customer who asked for it (``PendingPurchase/appUserId``), not the one logged in at approval.
    /// - Throws: ``StoreError`` — `purchaseNotAllowed`, `productUnavailable`, `networkError`,
    ///   `verificationFailed`, `invalidQuantity`, `storage`, `backend`, and the offer codes above.
    public func purchase(_ productId: String, quantity: Int = 1, appAccountToken: UUID? = nil,
                         offer: PurchaseOffer? = nil,
                         context: PurchaseContext = PurchaseContext()) async throws(StoreError) -> PurchaseOutcome {
        try await buy(productId, quantity: quantity, appAccountToken: appAccountToken, tokenResolved: false,
                      offer: offer, context: context)
    }

    /// The purchase; with `tokenResolved` the caller already asked for the link's token (``purchaseAccountToken()``)
    /// and `appAccountToken` is its answer, nil included, so it is not asked again.
    func buy(_ productId: String, quantity: Int, appAccountToken: UUID?, tokenResolved: Bool, offer: PurchaseOffer?,
             context: PurchaseContext) async throws(StoreError) -> PurchaseOutcome {
        openPurchases.append(productId)
        defer { if let index = openPurchases.firstIndex(of: productId) { openPurchases.remove(at: index) } }
        let customer = serverLink?.appUserId
        emit([.purchasing(productId: productId, context: context)])
        guard quantity >= 1 else {
            throw failed(productId, StoreError(.invalidQuantity, "purchase of \(productId): quantity must be at "
                + "least 1, got \(quantity)"))
        }
        // With a server link, a purchase carries the customer's minted token, so the server credits it (and the
        // App Store's notifications of it) to the customer whoever posts it; a token the app passes wins.
        var token = appAccountToken
        if token == nil, !tokenResolved { token = await purchaseAccountToken() }
        let request = PurchaseRequest(productId: productId, quantity: quantity, appAccountToken: token, offer: offer)
        let result: BackendPurchaseResult
        do {
            result = try await backend.purchase(request)
        } catch {
            throw failed(productId, StoreError.from(error, doing: "purchase of \(productId)"))
        }
        switch result {
        case .purchased(let update):
            let change = subscriptionChange(buying: productId, answer: update)
            do {
                let stored = try await deliver(update, context: context, fromPurchaseCall: true,
                                               announcing: change?.events, postingFor: customer)
                return change?.outcome ?? .purchased(stored)
            } catch {
                throw failed(productId, error)
            }
        case .pending(let purchaseId):
            let pending = PendingPurchase(id: purchaseId, productId: productId, quantity: quantity,
                                          appAccountToken: token, context: context, date: clock.now(),
                                          appUserId: customer)
            do { try write([.pending(pending)]) } catch { throw failed(productId, error) }
            emit([.pending(pending)])
            return .pending(pending)
        case .cancelled:
            emit([.cancelled(productId: productId)])
            return .cancelled
        }
    }

    /// Buys a product shown from ``products(_:)``; see ``purchase(_:quantity:appAccountToken:offer:context:)``.
    public func purchase(_ product: StoreProduct, quantity: Int = 1, appAccountToken: UUID? = nil,
                         offer: PurchaseOffer? = nil,
                         context: PurchaseContext = PurchaseContext()) async throws(StoreError) -> PurchaseOutcome {
        try await purchase(product.id, quantity: quantity, appAccountToken: appAccountToken, offer: offer,
                           context: context)
    }

    /// Emits `failed` and returns the error to throw.
    func failed(_ productId: String?, _ error: StoreError) -> StoreError {
        emit([.failed(productId: productId, reason: error)])
        return error
    }
}
