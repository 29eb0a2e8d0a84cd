extension HTTPServer {
    /// How the server listens and what it accepts.
    public struct Configuration: Sendable {
        /// The numeric address to bind (IPv4 such as `127.0.0.1`, or IPv6 such as `::1`; brackets are allowed).
        public var host: String
        /// The TCP port; 0 picks a free one (read it back from ``HTTPServer/port``).
        public var port: UInt16
        /// Worker threads; each polls its own share of the connections and runs the handler for them.
        public var threads: Int
        /// The largest request body accepted on any request; a larger one gets the ``refusal`` response.
        public var maxBodyBytes: Int
        /// The body limit of one request, from its method and path (still percent-encoded), asked once per
        /// request after its head arrived and before any body is read; kept within 0…``maxBodyBytes``.
        /// nil: ``maxBodyBytes`` for every request.
        public var bodyLimit: (@Sendable (_ method: String, _ path: String) -> Int)?
        /// Seconds of inactivity after which a connection is closed (0: never). Any byte received counts as
        /// activity, so a client dripping a byte at a time is limited by the connection limits, not by this.
        public var connectionTimeoutSeconds: Int
        /// Seconds a request's head (request line and headers) may take to arrive, from the connection's start,
        /// or, for a later request on a kept-alive connection, from the idle timeout after the previous request
        /// ended (0: no such limit). A connection past it is closed whatever it sends: dripping a byte at a time
        /// does not extend it.
        public var headTimeoutSeconds: Int
        /// The most connections open at once; further ones are closed as soon as they are accepted.
        public var connectionLimit: Int
        /// The most connections open at once from one client network, an IPv4 address or an IPv6 /64
        /// (``ClientNetwork``; 0: no such limit); further ones are closed as soon as they are accepted. Keep it
        /// below ``connectionLimit`` so one client cannot take them all.
        public var connectionLimitPerAddress: Int
        /// Memory per connection for the request line, headers and buffers; it bounds the longest request head.
        /// The default (64 KiB) holds the longest path docs/server.md allows (a 16384-byte appUserId, every byte
        /// percent-encoded: about 49 KB) plus about 10 KB of headers. libmicrohttpd 0.9.75 zeroes all of it
        /// after every request, so a larger value costs throughput (256 KiB measured about 25% slower).
        public var memoryLimitPerConnection: Int
        /// Builds the answer to a request the server refuses from its head or its body size (``HTTPRefusal``):
        /// it receives the request line, query and headers with an empty body. The connection is closed
        /// afterwards, except for a chunked body past the limit (read to its end and dropped).
        public var refusal: @Sendable (HTTPRequest, HTTPRefusal) -> HTTPResponse
        /// Requests run on a pool of their own threads while their connection is suspended
        /// (``BlockingRequests``); nil: every handler runs on the worker thread of its connection.
        public var blockingRequests: BlockingRequests?

        /// Creates a configuration; the defaults listen on `127.0.0.1:8080` with 4 threads, a 1 MiB body limit,
        /// 1000 connections, 100 per address, a 30-second idle timeout and a 10-second head timeout.
        public init(
            host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int = 4, maxBodyBytes: Int = 1 << 20,
            bodyLimit: (@Sendable (_ method: String, _ path: String) -> Int)? = nil,
            connectionTimeoutSeconds: Int = 30, headTimeoutSeconds: Int = 10, connectionLimit: Int = 1000,
            connectionLimitPerAddress: Int = 100,
            memoryLimitPerConnection: Int = 64 * 1024,
            refusal: @escaping @Sendable (HTTPRequest, HTTPRefusal) -> HTTPResponse =
                HTTPServer.Configuration.plainTextRefusal,
            blockingRequests: BlockingRequests? = nil
        ) {
            self.blockingRequests = blockingRequests
            self.host = host
            self.port = port
            self.threads = threads
            self.maxBodyBytes = maxBodyBytes
            self.bodyLimit = bodyLimit
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.headTimeoutSeconds = headTimeoutSeconds
            self.connectionLimit = connectionLimit
            self.connectionLimitPerAddress = connectionLimitPerAddress
            self.memoryLimitPerConnection = memoryLimitPerConnection
            self.refusal = refusal
        }

        /// The default ``refusal``: the refusal's status with its message as one line of plain text.
        @Sendable public static func plainTextRefusal(_ request: HTTPRequest, _ refusal: HTTPRefusal) -> HTTPResponse {
            HTTPResponse(
                status: refusal.status, headers: [HTTPResponse.Field("Content-Type", "text/plain; charset=utf-8")],
                body: Array("\(refusal.message)\n".utf8))
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
            if headTimeoutSeconds < 0 || headTimeoutSeconds > Int(UInt32.max) {
                throw .invalidConfiguration("headTimeoutSeconds must be 0…\(UInt32.max), got \(headTimeoutSeconds)")
            }
            if connectionLimit < threads || connectionLimit > Int(UInt32.max) {
                throw .invalidConfiguration("connectionLimit must be at least threads (\(threads)), got \(connectionLimit)")
            }
            if connectionLimitPerAddress < 0 || connectionLimitPerAddress > Int(UInt32.max) {
                throw .invalidConfiguration("connectionLimitPerAddress must be 0…\(UInt32.max), got \(connectionLimitPerAddress)")
            }
            if memoryLimitPerConnection < 16 * 1024 {
                throw .invalidConfiguration("memoryLimitPerConnection must be at least 16384, got \(memoryLimitPerConnection)")
            }
        }
    }
}
