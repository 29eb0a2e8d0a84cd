/// Why bytes are not JSON the server accepts.
enum StrictJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not UTF-8, or not JSON; the message says what and where.
    case malformed(String)
    /// Arrays and objects nested deeper than the limit.
    case tooDeep(limit: Int)
    /// More values (strings, numbers, literals, arrays, objects) than the limit.
    case tooManyElements(limit: Int)
    /// A number a `Decimal` cannot hold exactly, under the top-level key `member`.
    case inexactNumber(String, member: String?)

    /// A sentence for an error response or a configuration problem.
    var description: String {
        switch self {
        case .malformed(let message): message
        case .tooDeep(let limit): "the JSON nests arrays and objects deeper than \(limit) levels"
        case .tooManyElements(let limit): "the JSON holds more than \(limit) values"
        case .inexactNumber(let text, _):
            "the number \(text.prefix(64)) cannot be held exactly (at most \(JSONStrictScan.maximumDigits) "
                + "significant digits, between 1e-100 and 1e100)"
        }
    }
}
