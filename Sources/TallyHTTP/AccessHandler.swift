import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libmicrohttpd's access handler, called several times per request on the connection's worker thread:
///
/// 1. after the headers: creates the ``RequestState`` (in `con_cls`) and returns without answering, except
///    when `Content-Length` already exceeds the limit: then it answers with the rejection at once, so the
///    body is never read (libmicrohttpd closes the connection after that answer);
/// 2. once per piece of body: appends it, or drops it once the total passed the limit;
/// 3. finally (no more body): calls the handler (or the rejection) and queues its response.
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
        requestContext.pointee = Unmanaged.passRetained(RequestState()).toOpaque()
        if let length = announcedContentLength(connection), length > UInt64(server.maxBodyBytes) {
            let head = requestHead(connection: connection, url: url, method: method)
            return queue(server.rejection(head), on: connection)
        }
        return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()
    let size = uploadDataSize.pointee
    if size > 0 {
        if !state.isTooLarge, let uploadData {
            if size > server.maxBodyBytes - state.body.count {
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
    var request = requestHead(connection: connection, url: url, method: method)
    if state.isTooLarge {
        return queue(server.rejection(request), on: connection)
    }
    request.body = state.body
    state.body = []
    return queue(server.handler(request), on: connection)
}

/// libmicrohttpd's request-completed callback: releases the request's ``RequestState`` exactly once.
func requestCompletedCallback(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ reason: MHD_RequestTerminationCode
) {
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

/// The `Content-Length` the client announced, if any and numeric.
private func announcedContentLength(_ connection: OpaquePointer) -> UInt64? {
    guard let value = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else { return nil }
    return UInt64(String(cString: value).trimmingSpaces)
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
