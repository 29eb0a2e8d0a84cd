import Foundation


/// One pass over the counted transactions that sorts them by what they grant: non-consumables owned,
/// auto-renewables by subscription group, non-renewing purchases by product, and groups whose
/// introductory offer was used. Consumables are the ``Ledger``'s business.
struct Ownership {
    /// Non-consumables not revoked at `now`.
    private(set) var nonConsumables: Set<String> = []
    /// Group id → positions (in ``ClassifiedHistory``) of its auto-renewable transactions.
    private(set) var groups: [String: [Int]] = [:]
    /// Product id → positions of its non-renewing transactions.
    private(set) var nonRenewing: [String: [Int]] = [:]
    /// Groups with an introductory-offer transaction.
    private(set) var introductoryOfferUsedGroups: Set<String> = []
    /// Problems worth a person's attention.
    private(set) var warnings: Set<String> = []

    init(history: ClassifiedHistory, at now: Date) {
        let table = history.table
        var owned = [Bool](repeating: false, count: table.entries.count)
        var renewingBySlot = [[Int]](repeating: [], count: table.entries.count)
        var groups = GroupCollector(slotCount: table.entries.count)
        for position in history.positions {
            let slot = history.slots[position]
            switch history.kinds[position] {
            case .nonConsumable:
                if !owned[slot] && !history.isRevoked(position, at: now) { owned[slot] = true }
            case .autoRenewable:
                groups.add(position, history: history)
            case .nonRenewing:
                renewingBySlot[slot].append(position)
            case .consumable:
                break
            case nil where table.entries[slot].rates.isEmpty:
                warnings.insert("transactions of '\(table.entries[slot].productId)' have a product type Tally "
                    + "does not know, and the catalog lacks the product; they grant nothing")
            case nil:
                break
            }
        }
        for (slot, entry) in table.entries.enumerated() {
            if owned[slot] { nonConsumables.insert(entry.productId) }
            if !renewingBySlot[slot].isEmpty { nonRenewing[entry.productId] = renewingBySlot[slot] }
        }
        for (position, name) in groups.names.enumerated() {
            self.groups[name] = groups.members[position]
            if groups.introductoryOfferUsed[position] { introductoryOfferUsedGroups.insert(name) }
        }
        warnings.formUnion(groups.warnings)
    }
}

extension StoreTransaction {
    /// An introductory offer: `offerType` 1, or a free trial on a record that lacks `offerType`.
    var usedIntroductoryOffer: Bool {
        Self.isIntroductory(offerType: offerType, discount: offerDiscountType)
    }

    /// Whether an offer type and discount mean an introductory offer.
    static func isIntroductory(offerType: OfferType?, discount: OfferDiscountType?) -> Bool {
        guard let offerType else { return discount == .freeTrial }
        return offerType == .introductory
    }
}
