import Foundation


/// One pass over the counted transactions that sorts them by what they grant: non-consumables owned,
/// auto-renewables by subscription group, non-renewing purchases by product, and groups whose
/// introductory offer was used. Consumables are the ``Ledger``'s business.
struct Ownership {
    /// Non-consumables not revoked at `now`.
    private(set) var nonConsumables: Set<String> = []
    /// Group id → indices of its auto-renewable transactions.
    private(set) var groups: [String: [Int]] = [:]
    /// Product id → indices of its non-renewing transactions.
    private(set) var nonRenewing: [String: [Int]] = [:]
    /// Groups with an introductory-offer transaction.
    private(set) var introductoryOfferUsedGroups: Set<String> = []
    /// Problems worth a person's attention.
    private(set) var warnings: Set<String> = []

    init(transactions: [Transaction], winners: [Int], products: ProductLookup, at now: Date) {
        for index in winners {
            let productId = transactions[index].productId
            let kind = ProductKind.of(transactions[index].type, catalogKind: products[productId]?.kind)
            switch kind {
            case .nonConsumable:
                if !transactions[index].isRevoked(at: now) { nonConsumables.insert(productId) }
            case .autoRenewable:
                addSubscription(transactions[index], index: index, products: products)
            case .nonRenewing:
                nonRenewing[productId, default: []].append(index)
            case .consumable:
                break
            case nil:
                warnings.insert("transactions of '\(productId)' have type '\(transactions[index].type)', "
                    + "which Tally does not know, and the catalog lacks the product; they grant nothing")
            }
        }
    }

    private mutating func addSubscription(_ transaction: Transaction, index: Int, products: ProductLookup) {
        let groupId: String
        if let id = transaction.subscriptionGroupIdentifier ?? products[transaction.productId]?.groupId {
            groupId = id
        } else {
            groupId = transaction.productId
            warnings.insert("auto-renewable '\(transaction.productId)' has no subscriptionGroupIdentifier and the "
                + "catalog lacks it; it is treated as a group of its own")
        }
        groups[groupId, default: []].append(index)
        if transaction.expiresDate == nil {
            warnings.insert("auto-renewable transaction \(transaction.transactionId) of '\(transaction.productId)' "
                + "has no expiresDate; it cannot be in force")
        }
        if transaction.usedIntroductoryOffer { introductoryOfferUsedGroups.insert(groupId) }
    }
}

extension Transaction {
    /// True when refunded or revoked at or before `date`.
    func isRevoked(at date: Date) -> Bool {
        guard let revocationDate else { return false }
        return revocationDate <= date
    }

    /// An introductory offer: `offerType` 1, or a free trial on a record that lacks `offerType`.
    var usedIntroductoryOffer: Bool {
        guard let offerType else { return offerDiscountType == .freeTrial }
        return offerType == .introductory
    }
}
