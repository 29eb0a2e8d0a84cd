/// Why bytes are not acceptable JSON.
public enum JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not UTF-8, or not JSON; the message says where.
    case malformed(String)
    /// Arrays and objects nested deeper than the limit.
    case tooDeep(limit: Int)

    /// A sentence for an error response.
    public var description: String {
        switch self {
        case .malformed(let message): message
        case .tooDeep(let limit): "the JSON nests arrays and objects deeper than \(limit) levels"
        }
    }
}
