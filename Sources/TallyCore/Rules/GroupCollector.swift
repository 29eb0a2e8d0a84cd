import Foundation


/// Collects auto-renewable transactions by subscription group, hashing a group name only when a product's
/// transactions change group.
struct GroupCollector {
    private(set) var names: [String] = []
    private(set) var members: [[Int]] = []
    private(set) var introductoryOfferUsed: [Bool] = []
    private(set) var warnings: Set<String> = []
    private var positionByName: [String: Int] = [:]
    private var lastGroupOfSlot: [Int?]

    init(slotCount: Int) {
        lastGroupOfSlot = Array(repeating: nil, count: slotCount)
    }

    mutating func add(_ position: Int, history: ClassifiedHistory) {
        let slot = history.slots[position]
        let name = history.groupId(position) ?? fallbackGroup(slot, table: history.table)
        let group: Int
        if let last = lastGroupOfSlot[slot], names[last] == name {
            group = last
        } else {
            group = self.position(of: name)
            lastGroupOfSlot[slot] = group
        }
        members[group].append(position)
        if history.usedIntroductoryOffer[position] { introductoryOfferUsed[group] = true }
        if history.expiresDates[position] == nil {
            warnings.insert("auto-renewable transaction \(history.transactionId(position)) of "
                + "'\(history.table.entries[slot].productId)' has no expiresDate; it cannot be in force")
        }
    }

    private mutating func fallbackGroup(_ slot: Int, table: ProductTable) -> String {
        let entry = table.entries[slot]
        if let groupId = entry.catalog?.groupId { return groupId }
        warnings.insert("auto-renewable '\(entry.productId)' has no subscriptionGroupIdentifier and the "
            + "catalog lacks it; it is treated as a group of its own")
        return entry.productId
    }

    private mutating func position(of name: String) -> Int {
        if let position = positionByName[name] { return position }
        names.append(name)
        members.append([])
        introductoryOfferUsed.append(false)
        positionByName[name] = names.count - 1
        return names.count - 1
    }
}
