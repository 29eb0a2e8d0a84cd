/// One HTTP response: status, header fields and a complete body.
public struct HTTPResponse: Sendable, Hashable {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name, as it should be sent.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The status code, such as 200 or 404.
    public var status: Int
    /// Header fields in order (`Content-Length` is added by the server).
    public var headers: [Field]
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [Field] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
