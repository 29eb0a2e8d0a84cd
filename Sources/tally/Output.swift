import Foundation

/// Writing to standard output and standard error.
enum Output {
    /// Prints a line to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Encodes a value as JSON with sorted keys and ISO-8601 dates, one document per line when `compact`.
    static func json<T: Encodable>(_ value: T, compact: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
