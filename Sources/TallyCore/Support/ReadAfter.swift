/// The `Tally-Read-After` token: a position in the primary database's write-ahead log that a write reached, which a
/// server answers a write with and the engine sends back on its reads, so a read served by a replica is served only
/// once the replica has replayed that far (docs/server.md, *Deployment*).
///
/// On the wire it is exactly 16 uppercase hexadecimal digits (the 64-bit PostgreSQL LSN); anything else is refused.
/// It carries no authority: a client that forges one can only make its own reads go to the primary.
public struct ReadAfter: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The header a write's answer carries it in, and a read sends it back in.
    public static let headerName = "Tally-Read-After"
    /// The length of the token's text.
    public static let length = 16

    /// The log position (a PostgreSQL `pg_lsn` as a number).
    public let position: UInt64

    /// The token for a log position.
    public init(position: UInt64) {
        self.position = position
    }

    /// Parses the header's value: exactly ``length`` characters `0-9A-F`; nil for anything else.
    public init?(token: some StringProtocol) {
        let bytes = Array(token.utf8)
        guard bytes.count == Self.length else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        position = value
    }

    /// The header's value.
    public var token: String {
        let digits = String(position, radix: 16, uppercase: true)
        return String(repeating: "0", count: Self.length - digits.count) + digits
    }

    /// ``token``.
    public var description: String { token }

    /// Whether `left` is an earlier log position than `right`.
    public static func < (left: ReadAfter, right: ReadAfter) -> Bool {
        left.position < right.position
    }
}
