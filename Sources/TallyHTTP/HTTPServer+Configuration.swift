extension HTTPServer {
    /// How the server listens and what it accepts.
    public struct Configuration: Sendable {
        /// The numeric address to bind (IPv4 such as `127.0.0.1`, or IPv6 such as `::1`; brackets are allowed).
        public var host: String
        /// The TCP port; 0 picks a free one (read it back from ``HTTPServer/port``).
        public var port: UInt16
        /// Worker threads; each polls its own share of the connections and runs the handler for them.
        public var threads: Int
        /// The largest request body accepted; a larger one gets the ``rejection`` response.
        public var maxBodyBytes: Int
        /// Seconds of inactivity after which a connection is closed (0: never).
        public var connectionTimeoutSeconds: Int
        /// The most connections open at once; further ones are refused.
        public var connectionLimit: Int
        /// Memory per connection for the request line, headers and buffers; it bounds the longest request line.
        public var memoryLimitPerConnection: Int
        /// Builds the response to a request whose body is larger than ``maxBodyBytes``. It receives the request
        /// line, query and headers with an empty body; it should answer 413. The connection is closed afterwards
        /// when the body was announced by `Content-Length` (the body is never read).
        public var rejection: @Sendable (HTTPRequest) -> HTTPResponse

        /// Creates a configuration; the defaults listen on `127.0.0.1:8080` with 4 threads and a 1 MiB body limit.
        public init(
            host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int = 4, maxBodyBytes: Int = 1 << 20,
            connectionTimeoutSeconds: Int = 30, connectionLimit: Int = 1000,
            memoryLimitPerConnection: Int = 256 * 1024,
            rejection: @escaping @Sendable (HTTPRequest) -> HTTPResponse = HTTPServer.Configuration.plainTextRejection
        ) {
            self.host = host
            self.port = port
            self.threads = threads
            self.maxBodyBytes = maxBodyBytes
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.connectionLimit = connectionLimit
            self.memoryLimitPerConnection = memoryLimitPerConnection
            self.rejection = rejection
        }

        /// The default ``rejection``: 413 with a one-line plain-text body.
        @Sendable public static func plainTextRejection(_ request: HTTPRequest) -> HTTPResponse {
            HTTPResponse(
                status: 413, headers: [HTTPResponse.Field("Content-Type", "text/plain; charset=utf-8")],
                body: Array("request body too large\n".utf8))
        }

        /// Checks the numbers, naming the first one that is out of range.
        func validate() throws(HTTPServerError) {
            if threads < 1 || threads > 1024 {
                throw .invalidConfiguration("threads must be 1…1024, got \(threads)")
            }
            if maxBodyBytes < 0 {
                throw .invalidConfiguration("maxBodyBytes must not be negative, got \(maxBodyBytes)")
            }
            if connectionTimeoutSeconds < 0 || connectionTimeoutSeconds > Int(UInt32.max) {
                throw .invalidConfiguration("connectionTimeoutSeconds must be 0…\(UInt32.max), got \(connectionTimeoutSeconds)")
            }
            if connectionLimit < threads {
                throw .invalidConfiguration("connectionLimit must be at least threads (\(threads)), got \(connectionLimit)")
            }
            if memoryLimitPerConnection < 16 * 1024 {
                throw .invalidConfiguration("memoryLimitPerConnection must be at least 16384, got \(memoryLimitPerConnection)")
            }
        }
    }
}
