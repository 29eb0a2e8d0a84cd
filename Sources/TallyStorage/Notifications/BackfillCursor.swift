import Foundation

/// Where a back-fill of the App Store's notification history stands: the window's start, and the page token
/// within it (nil when the window was read to its end, so the next back-fill starts at ``start``).
public struct BackfillCursor: Sendable, Hashable {
    /// The start of the window being read (or, after a window was read to the end, of the next one).
    public var start: Date
    /// Apple's `paginationToken` for the next page of that window; nil: start the window afresh.
    public var paginationToken: String?

    /// Creates a cursor.
    public init(start: Date, paginationToken: String?) {
        self.start = Date(millisecondsSince1970: start.millisecondsSince1970)
        self.paginationToken = paginationToken
    }

    /// `ms` or `ms token`, as kept in the store's settings.
    public var text: String {
        "\(start.millisecondsSince1970)" + (paginationToken.map { " " + $0 } ?? "")
    }

    /// Reads ``text``; nil for anything else.
    public init?(text: String) {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let milliseconds = Int64(first) else { return nil }
        self.init(start: Date(millisecondsSince1970: milliseconds), paginationToken: parts.count > 1 ? String(parts[1]) : nil)
    }
}
