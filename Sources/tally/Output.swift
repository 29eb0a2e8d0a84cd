import Foundation

/// Writing to standard output and standard error.
enum Output {
    /// Prints a line to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Encodes a value as JSON with sorted keys and ISO-8601 dates, one document per line when `compact`.
    static func json<T: Encodable>(_ value: T, compact: Bool = false) throws -> String {
        String(decoding: try encoder(compact: compact).encode(value), as: UTF8.self)
    }

    /// The CLI's JSON encoder: sorted keys, slashes unescaped, ISO-8601 dates, pretty unless `compact`.
    static func encoder(compact: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}
