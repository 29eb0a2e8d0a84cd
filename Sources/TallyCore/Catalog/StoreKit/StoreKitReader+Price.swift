import Foundation


extension StoreKitReader {
    /// Reads the price `key` of an object, or nil when the key is absent.
    ///
    /// Xcode writes prices as strings in the storefront's currency: `"0.99"`, `"480"`, `"0.0"`, and a comma
    /// decimal `"2,99"` from some locales. An empty string (seen in the wild) becomes 0 with a warning; a JSON
    /// number (hand-written files) is read exactly from its text. Anything else is an error naming the key.
    mutating func price(_ object: JSONCursor, _ key: String, of productId: String) throws(TallyError) -> Decimal? {
        guard let cursor = try object.optional(key) else { return nil }
        switch cursor.tree {
        case .number:
            let value = try cursor.decimal()
            guard value >= 0 else { throw cursor.failure("is \(value); a price cannot be negative") }
            return value
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                warnings.append("\(file): \(cursor.path) of product '\(productId)' is empty; the price is read as 0")
                return 0
            }
            guard let value = Self.decimal(fromPrice: trimmed) else {
                throw cursor.failure("'\(text)' is not a price such as \"0.99\", \"2,99\" or \"480\"")
            }
            return value
        default:
            throw cursor.failure("is \(cursor.tree.typeName); expected a price string such as \"0.99\"")
        }
    }

    /// Parses `"0.99"`, `"2,99"`, `"480"`, `"80990.00"` exactly; nil for anything else (signs, letters, grouping).
    static func decimal(fromPrice text: String) -> Decimal? {
        var separators = 0
        var digits = 0
        for character in text.unicodeScalars {
            switch character {
            case "0"..."9": digits += 1
            case ".", ",": separators += 1
            default: return nil
            }
        }
        guard digits > 0, separators <= 1, text.unicodeScalars.last != ".", text.unicodeScalars.last != "," else {
            return nil
        }
        let normalized = text.replacingOccurrences(of: ",", with: ".")
        return Decimal(string: normalized, locale: Locale(identifier: "en_US_POSIX"))
    }
}
