/// One HTTP request as the server's handler sees it: the body is complete and within the size limit.
public struct HTTPRequest: Sendable, Hashable {
    /// The method as sent, upper case: `GET`, `POST`, …
    public var method: String
    /// The path exactly as sent, still percent-encoded (`/v1/customers/a%2Fb`), without the query.
    /// Split it on `/` first, then decode each segment with ``HTTPRequest/decodePathSegment(_:)``.
    public var path: String
    /// Query parameters, percent-decoded; the last value wins when a name repeats.
    public var query: [String: String]
    /// Every query parameter in the order sent, percent-decoded, repeats included (`?status=1&status=4`).
    public var queryItems: [QueryItem]
    /// Header fields keyed by lower-cased name; repeated fields are joined with `, `.
    public var headers: [String: String]
    /// The request body (empty when there is none).
    public var body: [UInt8]
    /// The client's IP address in numeric form (`127.0.0.1`, `::1`), as the socket's peer; empty when unknown.
    public var remoteAddress: String

    /// Creates a request.
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: [UInt8] = [], remoteAddress: String = "", queryItems: [QueryItem]? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.queryItems = queryItems ?? query.keys.sorted().map { QueryItem(name: $0, value: query[$0] ?? "") }
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// One query parameter.
    public struct QueryItem: Sendable, Hashable {
        /// The name, percent-decoded.
        public var name: String
        /// The value, percent-decoded; empty for `?flag`.
        public var value: String

        /// Creates a query parameter.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every value of the query parameter `name`, in the order sent.
    public func queryValues(_ name: String) -> [String] {
        queryItems.filter { $0.name == name }.map(\.value)
    }

    /// The value of a header field, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
