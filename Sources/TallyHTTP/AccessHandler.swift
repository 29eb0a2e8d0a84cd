import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libmicrohttpd's access handler, called several times per request on the connection's worker thread:
///
/// 1. after the headers: reads the head once and creates the ``RequestState`` (in `con_cls`). A head that
///    frames its body ambiguously (``RequestFraming``) or announces a `Content-Length` above the request's
///    limit is answered at once with the refusal, and the connection is closed: the body is never read;
/// 2. once per piece of body: appends it, or drops it once the total passed the limit;
/// 3. finally (no more body): calls the handler (or the refusal) and queues its response. A request the
///    configuration marks blocking (``HTTPServer/BlockingRequests``) is instead handed to the blocking pool
///    with its connection suspended; the pool resumes it when the handler returned, and libmicrohttpd calls
///    once more: then its answer is queued.
///
/// Answering only on the final call keeps keep-alive connections open.
func accessHandlerCallback(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let context, let connection, let uploadDataSize, let requestContext else { return .NO }
    let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
    guard let statePointer = requestContext.pointee else {
        if let watched = watchedConnection(connection) { server.watch.headArrived(watched) }
        let (head, fields) = requestHead(connection: connection, url: url, method: method)
        let limit = server.limit(method: head.method, path: head.path)
        requestContext.pointee = Unmanaged.passRetained(RequestState(head: head, limit: limit, tally: server.liveRequests))
            .toOpaque()
        if let refusal = RequestFraming.refusal(fields: fields, version: version.map { String(cString: $0) } ?? "") {
            return queue(server.refusal(head, refusal), on: connection, closing: true)
        }
        if let length = announcedContentLength(fields), length > UInt64(limit) {
            return queue(server.refusal(head, .bodyTooLarge(limit: limit)), on: connection, closing: true)
        }
        return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()
    let size = uploadDataSize.pointee
    if size > 0 {
        if !state.isTooLarge, let uploadData {
            if size > state.limit - state.body.count {
                state.isTooLarge = true
                state.body = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                    state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
                }
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }
    if let pending = state.pending {  // resumed by the blocking pool
        state.pending = nil
        let response = pending.response ?? HTTPResponse(status: 500, body: Array("internal error: no answer\n".utf8))
        return queue(response, on: connection, closing: server.isDraining.withLock { $0 })
    }
    let response: HTTPResponse
    if state.isTooLarge {
        response = server.refusal(state.head, .bodyTooLarge(limit: state.limit))
    } else {
        var request = state.head
        request.body = state.body
        state.body = []
        if let pool = server.blockingPool, server.isBlocking?(request.method, request.path) == true {
            let pending = PendingAnswer()
            let address = Int(bitPattern: UnsafeRawPointer(connection))
            let handler = server.handler, complete = request
            let accepted = pool.submit(prepare: { MHD_suspend_connection(connection) }) {
                pending.set(handler(complete))
                MHD_resume_connection(OpaquePointer(bitPattern: address))
            }
            if accepted {
                state.pending = pending
                return .YES
            }
            // The server is stopping and the pool takes no more: answer here, as without a pool.
        }
        response = server.handler(request)
    }
    // Read after the handler ran: a stop that began meanwhile closes this connection too.
    return queue(response, on: connection, closing: server.isDraining.withLock { $0 })
}

/// libmicrohttpd's request-completed callback: starts the connection's next head deadline and releases the
/// request's ``RequestState`` exactly once.
func requestCompletedCallback(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ reason: MHD_RequestTerminationCode
) {
    if let context, let connection, let watched = watchedConnection(connection) {
        Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue().watch.requestEnded(watched)
    }
    guard let requestContext, let pointer = requestContext.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(pointer).release()
    requestContext.pointee = nil
}

/// libmicrohttpd's unescape callback: leaves the path and the query text exactly as sent, so `%2F` stays
/// distinguishable from `/`; ``HTTPRequest`` decodes later.
func keepEscapedCallback(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ text: UnsafeMutablePointer<CChar>?
) -> Int {
    guard let text else { return 0 }
    return strlen(text)
}

/// The `Content-Length` the client announced. libmicrohttpd has already refused a value that is not digits,
/// and ``RequestFraming`` a repeated one, so the first is the only one.
private func announcedContentLength(_ fields: [(name: String, value: String)]) -> UInt64? {
    guard let field = fields.first(where: { $0.name == "content-length" }) else { return nil }
    return UInt64(field.value.trimmingSpaces)
}
