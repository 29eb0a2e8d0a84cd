import Foundation

/// One encoded history item with the keys it is ordered by: newest first, ties broken by ``sortId``.
struct HistoryItem: Sendable {
    /// Milliseconds since 1970 of the item's date.
    var milliseconds: Int64
    /// Unique within a customer's history: `transaction:<id>`, `ledger:<entry id>`, `transfer:<n>`,
    /// `notification:<notificationUUID>`.
    var sortId: String
    /// The encoded item.
    var json: [UInt8]

    /// Whether this item comes before `other` in the history's order.
    func precedes(_ other: HistoryItem) -> Bool {
        milliseconds != other.milliseconds ? milliseconds > other.milliseconds : sortId < other.sortId
    }

    /// Whether this item comes after the position a cursor names.
    func follows(_ cursor: HistoryCursor) -> Bool {
        milliseconds != cursor.milliseconds ? milliseconds < cursor.milliseconds : sortId > cursor.sortId
    }
}
