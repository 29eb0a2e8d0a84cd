/// One request in progress on one connection: the body received so far.
///
/// Ownership: the access handler's first call creates it and stores a retained pointer in the request's
/// `con_cls` (`Unmanaged.passRetained`); later calls borrow it (`takeUnretainedValue`); libmicrohttpd's
/// request-completed callback releases it (`takeRetainedValue`) exactly once, whatever ended the request.
/// libmicrohttpd runs every callback of one connection on the same worker thread, one at a time, so the
/// state is never touched concurrently.
final class RequestState {
    /// The body bytes received so far (never more than the limit).
    var body: [UInt8] = []
    /// Set when the body grew past the limit: the rest is read and dropped, and the rejection is sent.
    var isTooLarge = false
}
