import Foundation


/// The parallel arrays while ``ClassifiedHistory`` fills them.
struct ClassifiedHistoryFacts {
    var indices: [Int] = []
    var slots: [Int] = []
    var kinds: [ProductKind?] = []
    var purchaseDates: [Date] = []
    var expiresDates: [Date?] = []
    var revocationDates: [Date?] = []
    var quantities: [Int] = []
    var isUpgraded: [Bool] = []
    var usedIntroductoryOffer: [Bool] = []

    init(capacity: Int) {
        indices.reserveCapacity(capacity)
        slots.reserveCapacity(capacity)
        kinds.reserveCapacity(capacity)
        purchaseDates.reserveCapacity(capacity)
        expiresDates.reserveCapacity(capacity)
        revocationDates.reserveCapacity(capacity)
        quantities.reserveCapacity(capacity)
        isUpgraded.reserveCapacity(capacity)
        usedIntroductoryOffer.reserveCapacity(capacity)
    }

    /// Appends the facts of the transaction at `index`.
    mutating func append(index: Int, slot: Int, kind: ProductKind?, from transactions: [StoreTransaction]) {
        indices.append(index)
        slots.append(slot)
        kinds.append(kind)
        purchaseDates.append(transactions[index].purchaseDate)
        expiresDates.append(transactions[index].expiresDate)
        revocationDates.append(transactions[index].revocationDate)
        quantities.append(transactions[index].quantity)
        isUpgraded.append(transactions[index].isUpgraded == true)
        usedIntroductoryOffer.append(StoreTransaction.isIntroductory(offerType: transactions[index].offerType,
                                                                discount: transactions[index].offerDiscountType))
    }
}
