/// What every libmicrohttpd callback needs, reached through the daemon's context pointer.
///
/// Ownership: ``HTTPServer`` holds the only strong reference and hands libmicrohttpd an unretained pointer
/// (`Unmanaged.passUnretained`). The server stops the daemon (which joins every worker thread) before it lets go
/// of the context, so no callback can run after the context is freed.
final class ServerContext: Sendable {
    let handler: HTTPHandler
    let rejection: @Sendable (HTTPRequest) -> HTTPResponse
    let maxBodyBytes: Int

    init(handler: @escaping HTTPHandler, rejection: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
         maxBodyBytes: Int) {
        self.handler = handler
        self.rejection = rejection
        self.maxBodyBytes = maxBodyBytes
    }
}
