import Foundation

/// Formats instants for failure details.
enum ReceiptTimestamp {
    /// `yyyy-MM-ddTHH:mm:ssZ`.
    static func text(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .current))
    }
}
