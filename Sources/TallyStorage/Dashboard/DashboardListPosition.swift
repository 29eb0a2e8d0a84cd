import TallyCore
import TallySignedData

/// Where a row sits in a dashboard list (newest first): a page goes on after its last row's position.
/// Transactions and offers: (purchase date in milliseconds, transaction id); notifications: (stored sequence, "").
public struct DashboardListPosition: Sendable, Hashable {
    /// Which list a position belongs to (a cursor of one list is refused by the other).
    public enum List: String, Sendable {
        case transactions = "t1"
        case notifications = "n1"
        case offers = "o1"
    }

    /// Transactions: the purchase date in milliseconds since 1970; notifications: the stored sequence.
    public var number: Int64
    /// Transactions: the transaction id (its exact bytes); notifications: empty.
    public var id: String

    /// Creates a position.
    public init(number: Int64, id: String = "") {
        self.number = number
        self.id = id
    }

    /// Decodes a `nextCursor` this server issued for `list`; nil for anything else.
    public init?(cursor text: String, list: List) {
        guard let bytes = Base64URL.decode(text), UTF8Check.isValid(bytes) else { return nil }
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.hasPrefix(list.rawValue + ":") else { return nil }
        let rest = decoded.dropFirst(list.rawValue.count + 1)
        guard let colon = rest.firstIndex(of: ":"), let number = Int64(rest[..<colon]) else { return nil }
        self.number = number
        id = String(rest[rest.index(after: colon)...])
        if list == .notifications, !id.isEmpty { return nil }
    }

    /// The opaque `nextCursor` of this position in `list`.
    public func cursor(_ list: List) -> String {
        Base64URL.encode(Array("\(list.rawValue):\(number):\(id)".utf8))
    }
}
