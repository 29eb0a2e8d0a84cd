/// Strings numbered 0, 1, 2… in the order first inserted: an open-addressing hash table keyed by a 64-bit
/// hash of the UTF-8 bytes. It stores no strings: callers confirm a match through a closure, so a
/// history's 100,000 transaction ids are neither copied nor retained. `Dictionary<String, Int>` costs several
/// times more per lookup, which matters at that size.
///
/// Inputs are transaction and product ids, not attacker-chosen keys; a flood of colliding ids would only slow
/// lookups down (linear probing), never give wrong answers.
struct StringPositions: Sendable {
    /// Bucket → (upper 32 bits of the hash) << 32 | (position + 1), or 0 when empty. Its count is a power of
    /// two, at least twice ``count``.
    private var buckets: [UInt64]
    /// The hash of each position, to rebuild the buckets when the table grows.
    private var hashes: [UInt64] = []

    init(capacity: Int = 8) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        buckets = Array(repeating: 0, count: size)
        hashes.reserveCapacity(capacity)
    }

    /// How many strings were inserted.
    var count: Int { hashes.count }

    /// The position of the string with `hash`, inserting it at the end when `matches` accepts no position
    /// already holding that hash.
    mutating func insert(hash: UInt64, matches: (Int) -> Bool) -> (inserted: Bool, position: Int) {
        let mask = buckets.count - 1
        let tag = hash >> 32
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while buckets[bucket] != 0 {
            let entry = buckets[bucket]
            let position = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
            if entry >> 32 == tag && hashes[position] == hash && matches(position) { return (false, position) }
            bucket = (bucket + 1) & mask
        }
        let position = hashes.count
        hashes.append(hash)
        buckets[bucket] = tag << 32 | UInt64(position + 1)
        if hashes.count * 2 > buckets.count { grow() }
        return (true, position)
    }

    private mutating func grow() {
        buckets = Array(repeating: 0, count: buckets.count * 2)
        let mask = buckets.count - 1
        for (position, hash) in hashes.enumerated() {
            var bucket = Int(truncatingIfNeeded: hash) & mask
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = (hash >> 32) << 32 | UInt64(position + 1)
        }
    }

    /// A 64-bit hash of the UTF-8 bytes, eight bytes per step, with a final mix so both the low bits (the
    /// bucket) and the high bits (the tag) vary.
    static func hash(_ key: String) -> UInt64 {
        if let hash = key.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return hash }
        return Array(key.utf8).withUnsafeBytes(hash)
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 29)
    }
}
