import CMicroHTTPD

/// Hands `response` to libmicrohttpd for `connection` (the body is copied); a response libmicrohttpd
/// cannot send (a status outside 100…999, a header with a line break) becomes a 500 naming the problem.
/// `closing` adds `Connection: close`, so libmicrohttpd closes the connection once the response is sent.
func queue(_ response: HTTPResponse, on connection: OpaquePointer, closing: Bool = false) -> MHD_Result {
    guard (100...999).contains(response.status) else {
        return queue(.internalServerError("the handler returned status \(response.status)"), on: connection,
                     closing: closing)
    }
    let created = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let created else { return .NO }
    defer { MHD_destroy_response(created) }
    for field in response.headers where !field.isContentLength {
        guard MHD_add_response_header(created, field.name, field.value) == .YES else {
            return queue(.internalServerError("the handler returned an invalid header field \"\(field.name)\""),
                         on: connection, closing: closing)
        }
    }
    if closing, MHD_add_response_header(created, "Connection", "close") != .YES { return .NO }
    return MHD_queue_response(connection, UInt32(response.status), created)
}

extension HTTPResponse {
    /// A plain-text 500 saying what went wrong inside the server.
    static func internalServerError(_ reason: String) -> HTTPResponse {
        HTTPResponse(
            status: 500, headers: [Field("Content-Type", "text/plain; charset=utf-8")],
            body: Array("internal server error: \(reason)\n".utf8))
    }
}

extension HTTPResponse.Field {
    /// Whether this is a `Content-Length` field (libmicrohttpd sets that one itself).
    var isContentLength: Bool {
        name.utf8.elementsEqual("content-length".utf8) { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
    }
}
