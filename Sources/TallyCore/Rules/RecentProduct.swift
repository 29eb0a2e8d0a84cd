/// Product slots and kinds for the classifying pass, memoised. A history names few products, so while the
/// table is small the slot is found by comparing lengths and then strings (two equal short ids compare as two
/// machine words) instead of hashing each id; per slot, the kind of the last type seen is kept, because
/// matching a type against each known kind compares several strings.
struct RecentProduct {
    /// Above this many products the table's hash lookup is cheaper than scanning.
    private static let scanLimit = 8
    /// Per slot: the product id and its UTF-8 length.
    private var ids: [String] = []
    private var lengths: [Int] = []
    /// Per slot: the last type met for that product and the kind it counts as.
    private var types: [ProductType?] = []
    private var kinds: [ProductKind?] = []
    private var last = -1

    /// The slot in `table` of a product id (created on first use) and the kind a transaction of `type` for it
    /// counts as.
    mutating func slotAndKind(of id: String, type: ProductType, in table: inout ProductTable) -> (Int, ProductKind?) {
        let slot = self.slot(of: id, in: &table)
        if type != types[slot] {
            kinds[slot] = ProductKind.of(type, catalogKind: table.catalogKinds[slot])
            types[slot] = type
        }
        return (slot, kinds[slot])
    }

    private mutating func slot(of id: String, in table: inout ProductTable) -> Int {
        let length = id.utf8.count
        if last >= 0, lengths[last] == length, ids[last] == id { return last }
        if ids.count <= Self.scanLimit {
            for slot in ids.indices where lengths[slot] == length && ids[slot] == id {
                last = slot
                return slot
            }
        }
        let slot = table.slot(of: id)
        while ids.count <= slot {
            ids.append(table.productId(ids.count))
            lengths.append(table.productId(lengths.count).utf8.count)
            types.append(nil)
            kinds.append(nil)
        }
        last = slot
        return slot
    }
}
