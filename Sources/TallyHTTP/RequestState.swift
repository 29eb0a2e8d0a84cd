/// One request in progress on one connection: its head, its body limit and the body received so far.
///
/// Ownership: the access handler's first call creates it and stores a retained pointer in the request's
/// `con_cls` (`Unmanaged.passRetained`); later calls borrow it (`takeUnretainedValue`); libmicrohttpd's
/// request-completed callback releases it (`takeRetainedValue`) exactly once, whatever ended the request.
/// libmicrohttpd runs every callback of one connection on the same worker thread, one at a time, so the
/// state is never touched concurrently.
final class RequestState {
    /// The request line, query and headers, read once on the first call.
    var head: HTTPRequest
    /// The largest body this request may have (chosen from its method and path).
    let limit: Int
    /// The body bytes received so far (never more than ``limit``).
    var body: [UInt8] = []
    /// Set when the body grew past the limit: the rest is read and dropped, and the refusal is sent.
    var isTooLarge = false
    /// The server's count of requests in flight, which this state is part of while it lives.
    private let tally: LiveCount

    init(head: HTTPRequest, limit: Int, tally: LiveCount) {
        self.head = head
        self.limit = limit
        self.tally = tally
        tally.add(1)
    }

    deinit {
        tally.add(-1)
    }
}
