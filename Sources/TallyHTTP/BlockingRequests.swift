extension HTTPServer {
    /// Requests whose handler may wait a long time without using the CPU (a durable write waiting for its
    /// group's COMMIT): they run on a pool of their own threads while the connection is suspended, so the
    /// worker threads go on serving the other connections, and many such requests can wait at once.
    public struct BlockingRequests: Sendable {
        /// Threads of the pool: how many such requests run at once (the rest wait their turn).
        public var threads: Int
        /// Whether a request (by method and still percent-encoded path) runs on the pool.
        public var matches: @Sendable (_ method: String, _ path: String) -> Bool

        /// Creates the setting.
        public init(threads: Int, matches: @escaping @Sendable (_ method: String, _ path: String) -> Bool) {
            self.threads = threads
            self.matches = matches
        }
    }
}
