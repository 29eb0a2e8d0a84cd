import TallyLocking

/// What every libmicrohttpd callback needs, reached through the daemon's context pointer.
///
/// Ownership: ``HTTPServer`` holds the only strong reference and hands libmicrohttpd an unretained pointer
/// (`Unmanaged.passUnretained`). The server stops the daemon (which joins every worker thread) before it lets go
/// of the context, so no callback can run after the context is freed.
final class ServerContext: Sendable {
    let handler: HTTPHandler
    let refusal: @Sendable (HTTPRequest, HTTPRefusal) -> HTTPResponse
    let maxBodyBytes: Int
    let bodyLimit: (@Sendable (_ method: String, _ path: String) -> Int)?
    /// Requests in flight now.
    let liveRequests = LiveCount()
    /// Set once a graceful stop began: every answer from then on closes its connection.
    let isDraining = Locked(false)
    /// The pool running ``HTTPServer/BlockingRequests``, when configured.
    let blockingPool: BlockingPool?
    /// Every open connection, for the per-network limit and the head deadline.
    let watch: ConnectionWatch
    /// Which requests run on ``blockingPool``.
    let isBlocking: (@Sendable (_ method: String, _ path: String) -> Bool)?

    /// Throws when the blocking pool's or the watch's threads cannot be started.
    init(configuration: HTTPServer.Configuration, handler: @escaping HTTPHandler) throws(HTTPServerError) {
        watch = try ConnectionWatch(configuration: configuration)
        self.handler = handler
        refusal = configuration.refusal
        maxBodyBytes = configuration.maxBodyBytes
        bodyLimit = configuration.bodyLimit
        if let blocking = configuration.blockingRequests {
            do {
                blockingPool = try BlockingPool(threads: blocking.threads)
            } catch {
                watch.stop()
                throw error
            }
        } else {
            blockingPool = nil
        }
        isBlocking = configuration.blockingRequests?.matches
    }

    /// The body limit of a request: the configuration's ``HTTPServer/Configuration/bodyLimit`` for its method
    /// and path, kept within 0…``maxBodyBytes``.
    func limit(method: String, path: String) -> Int {
        guard let bodyLimit else { return maxBodyBytes }
        return min(max(0, bodyLimit(method, path)), maxBodyBytes)
    }
}
