import Foundation

/// A JSON number's text read exactly into a `Decimal` (never through `Double`).
enum ExactAmount {
    /// The most significant digits a `Decimal` holds exactly.
    static let maximumDigits = 38

    /// The value of `text` (JSON number grammar), or nil when a `Decimal` cannot hold it exactly.
    static func parse(_ text: String) -> Decimal? {
        let lowered = text.lowercased()
        let parts = lowered.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let exponent = Int(parts[1]), abs(exponent) <= 100 else { return nil }
        }
        var digits = parts[0].filter { $0.isNumber }
        digits = String(digits.drop { $0 == "0" })
        if parts[0].contains(".") {
            while digits.hasSuffix("0") { digits.removeLast() }
        }
        guard digits.count <= maximumDigits,
              let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN
        else { return nil }
        return value
    }
}
