import Foundation

/// A string compared and hashed by its UTF-8 bytes, as a database compares text.
///
/// Swift's `String` equality is canonical equivalence: `"café"` with a precomposed `é` equals `"café"` spelled
/// `e` + U+0301, and `"K"` equals U+212A KELVIN SIGN. A store keeps those as different customers, spend ids or
/// currencies, so every map keyed by such an id uses this key, never `String`, or one customer's data is served
/// for another's.
public struct UTF8Key: Hashable, Sendable, CustomStringConvertible {
    /// The string, exactly as given.
    public let string: String

    /// Wraps `string`.
    public init(_ string: String) {
        self.string = string
    }

    /// Byte-for-byte equality of the UTF-8 encodings.
    public static func == (left: UTF8Key, right: UTF8Key) -> Bool {
        left.string.hasSameBytes(as: right.string)
    }

    /// Hashes the UTF-8 bytes (not the canonical form `String` hashes).
    public func hash(into hasher: inout Hasher) {
        let hashed: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
        if hashed == nil {
            for byte in string.utf8 { hasher.combine(byte) }
        }
        hasher.combine(string.utf8.count)
    }

    /// The string.
    public var description: String { string }
}

extension String {
    /// Whether the two strings have the same UTF-8 bytes (Swift's `==` also matches other normalizations).
    public func hasSameBytes(as other: String) -> Bool {
        let mine = utf8, theirs = other.utf8
        guard mine.count == theirs.count else { return false }
        // Native strings are contiguous UTF-8: one memcmp instead of a byte-by-byte walk.
        let compared: Bool?? = mine.withContiguousStorageIfAvailable { left in
            theirs.withContiguousStorageIfAvailable { right in
                guard let a = left.baseAddress, let b = right.baseAddress else { return left.count == right.count }
                return memcmp(a, b, left.count) == 0
            }
        }
        if let compared, let compared { return compared }
        return mine.elementsEqual(theirs)
    }
}
