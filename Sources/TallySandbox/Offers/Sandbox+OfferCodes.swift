import Foundation
import TallyCore

extension Sandbox {
    /// Makes `count` one-use codes (1…1,000) for the offer-code offer `offerId` (its reference name in the
    /// `.storekit` file's `codeOffers`, compared as bytes) of the one product holding it, or of `productId`.
    public mutating func createOfferCodes(offerId: String, count: Int, productId: String? = nil)
        throws(SandboxError) -> [SandboxOfferCode]
    {
        guard (1...1_000).contains(count) else {
            throw SandboxError(.invalidRequest, "make between 1 and 1000 offer codes at a time, not \(count)")
        }
        let holders = catalog.products.filter { product in
            (productId.map { product.id.utf8.elementsEqual($0.utf8) } ?? true)
                && (product.subscription?.offerCodes.contains { $0.id.map { $0.utf8.elementsEqual(offerId.utf8) } ?? false } ?? false)
        }
        guard let holder = holders.first else {
            throw SandboxError(.invalidOfferIdentifier, "no product\(productId.map { " '\($0)'" } ?? "") has the offer code offer '\(offerId)' (codeOffers of the .storekit file, by reference name)")
        }
        guard holders.count == 1 else {
            throw SandboxError(.invalidRequest, "the offer '\(offerId)' belongs to \(holders.map(\.id).joined(separator: ", ")): name the product with --product")
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var made: [SandboxOfferCode] = []
        let taken = Set(offerCodes.map(\.code))
        while made.count < count {
            let code = String((0..<12).map { _ in alphabet.randomElement(using: &generator)! })
            guard !taken.contains(code), !made.contains(where: { $0.code == code }) else { continue }
            made.append(SandboxOfferCode(code: code, productId: holder.id, offerId: offerId, createdDate: now))
        }
        offerCodes += made
        log(.offerCodesCreated, account: "", productId: holder.id, detail: "\(count) × \(offerId)")
        return made
    }

    /// Redeems an offer code for `account`, as the App Store's redemption sheet does: a customer without a
    /// subscription in the group subscribes with the offer (SUBSCRIBED, `offerType` 3 and the offer's reference
    /// name in `offerIdentifier`); a subscriber of the product gets the offer from the next renewal, and of another
    /// product of the group upgrades with it now or downgrades to it at renewal (OFFER_REDEEMED). The transaction
    /// reaches every device of the account as an update. A code works once (`ineligibleForOffer` after).
    public mutating func redeemOfferCode(_ code: String, account: String = "default",
                                         device: String = "default") throws(SandboxError) -> StoreTransaction {
        let typed = code.uppercased()
        guard let index = offerCodes.firstIndex(where: { $0.code.utf8.elementsEqual(typed.utf8) }) else {
            throw SandboxError(.unknownOfferCode, "no offer code '\(code.prefix(64))' was made: list them with 'tally sandbox offer-code list'")
        }
        let entry = offerCodes[index]
        if let by = entry.redeemedBy {
            throw SandboxError(.ineligibleForOffer, "offer code \(entry.code) was redeemed already\(by == account ? " by this account" : "")")
        }
        guard let product = productIndex[entry.productId],
              let offer = product.product.subscription?.offerCodes.first(where: { $0.id == entry.offerId }) else {
            throw SandboxError(.invalidOfferIdentifier, "the offer '\(entry.offerId)' of code \(entry.code) is no longer in the catalog")
        }
        if let classes = offer.eligibility, let group = product.product.subscription?.groupId {
            let customer = customerClass(account: account, group: group)
            guard classes.contains(customer) else {
                throw SandboxError(.ineligibleForOffer, "offer code \(entry.code) is for \(classes.map(\.rawValue).sorted().joined(separator: ", ")) customers (eligibility of '\(entry.offerId)'); account '\(account)' is \(customer.rawValue) in the group")
            }
        }
        guard canMakePayments(account: account) else {
            throw SandboxError(.purchaseNotAllowed, "account '\(account)' may not make purchases: parental controls are on")
        }
        withAccount(account) { $0.connect(device) }
        offerCodes[index].redeemedBy = account
        offerCodes[index].redeemedDate = now
        if let owned = alreadyOwned(product.product, account: account), let group = product.product.subscription?.groupId {
            scheduleOffer(offer, group: group, account: account, device: device, subtype: nil)
            return owned
        }
        let (transaction, isNew) = subscribe(product, account: account, device: device, appAccountToken: nil,
                                             grant: .offer(offer))
        if isNew { deliverToAllDevices(transaction.transactionId, account: account) }
        return transaction
    }

    /// Whether the account is new to group `group` (never subscribed), an existing subscriber (in force or in
    /// billing retry) or expired (lapsed), the classes of an offer code's `eligibility`.
    func customerClass(account: String, group: String) -> SubscriptionOffer.CustomerClass {
        guard accounts[account]?.chains[group] != nil else { return .new }
        return state(account: account).hasLapsed(groupId: group) ? .expired : .existing
    }
}
