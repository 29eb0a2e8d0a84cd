import TallyCore
import TallyCrypto
import TallyStorage

/// The opaque `nextCursor`: the position (date, sort id) of the last item of a page, base64url-encoded.
struct HistoryCursor: Sendable, Hashable {
    var milliseconds: Int64
    var sortId: String

    /// The cursor after `item`.
    init(after item: HistoryItem) {
        milliseconds = item.milliseconds
        sortId = item.sortId
    }

    /// Decodes a cursor this server issued; nil for anything else.
    init?(_ text: String) {
        guard let bytes = Base64URL.decode(text), UTF8Check.isValid(bytes) else { return nil }
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.hasPrefix("h1:") else { return nil }
        let rest = decoded.dropFirst(3)
        guard let colon = rest.firstIndex(of: ":"), let milliseconds = Int64(rest[..<colon]) else { return nil }
        self.milliseconds = milliseconds
        sortId = String(rest[rest.index(after: colon)...])
    }

    /// The opaque text.
    var text: String {
        Base64URL.encode(Array("h1:\(milliseconds):\(sortId)".utf8))
    }
}
