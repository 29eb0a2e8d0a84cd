import TallyLocking

/// One request in progress on one connection: its head, its body limit and the body received so far.
///
/// Ownership: the access handler's first call creates it and stores a retained pointer in the request's
/// `con_cls` (`Unmanaged.passRetained`); later calls borrow it (`takeUnretainedValue`); libmicrohttpd's
/// request-completed callback releases it (`takeRetainedValue`) exactly once, whatever ended the request.
/// libmicrohttpd runs every callback of one connection on the same worker thread, one at a time, so the
/// state is never touched concurrently. (A request run on the blocking pool hands its answer back through
/// ``PendingAnswer``, which is `Sendable`; the state itself stays on the worker thread.)
final class RequestState {
    /// The request line, query and headers, read once on the first call.
    var head: HTTPRequest
    /// The largest body this request may have (chosen from its method and path).
    let limit: Int
    /// The body bytes received so far (never more than ``limit``).
    var body: [UInt8] = []
    /// Set when the body grew past the limit: the rest is read and dropped, and the refusal is sent.
    var isTooLarge = false
    /// Set while the request runs on the blocking pool with its connection suspended: the pool puts the
    /// answer here, then resumes the connection, and the next call queues it.
    var pending: PendingAnswer?
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

/// The answer of a request run on the blocking pool, written by the pool thread before it resumes the
/// connection and read by the worker thread after (libmicrohttpd's resume orders the two).
final class PendingAnswer: Sendable {
    private let answer = Locked<HTTPResponse?>(nil)

    func set(_ response: HTTPResponse) { answer.withLock { $0 = response } }

    var response: HTTPResponse? { answer.withLock { $0 } }
}
