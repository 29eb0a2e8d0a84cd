import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The request line, query and headers of the request on `connection`, with an empty body.
func requestHead(connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?)
    -> HTTPRequest
{
    var request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "",
        remoteAddress: clientAddress(connection))
    withUnsafeMutablePointer(to: &request.headers) { headers in
        _ = MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, UnsafeMutableRawPointer(headers))
    }
    withUnsafeMutablePointer(to: &request.query) { query in
        _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectQueryItem, UnsafeMutableRawPointer(query))
    }
    return request
}

/// Adds one header field to the `[String: String]` behind `context`: lower-cased name, repeats joined by `, `.
private func collectHeader(
    _ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let context, let key else { return .YES }
    let headers = context.assumingMemoryBound(to: [String: String].self)
    let name = asciiLowercased(key)
    let text = value.map { String(cString: $0) } ?? ""
    if let existing = headers.pointee[name] {
        headers.pointee[name] = existing + ", " + text
    } else {
        headers.pointee[name] = text
    }
    return .YES
}

/// Adds one query parameter, decoded, to the `[String: String]` behind `context` (the last value wins).
private func collectQueryItem(
    _ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let context, let key else { return .YES }
    let query = context.assumingMemoryBound(to: [String: String].self)
    let name = HTTPRequest.decodeQueryComponent(String(cString: key))
    query.pointee[name] = value.map { HTTPRequest.decodeQueryComponent(String(cString: $0)) } ?? ""
    return .YES
}

/// The C string with ASCII letters lower-cased (header names are ASCII tokens; this avoids Unicode case mapping).
private func asciiLowercased(_ text: UnsafePointer<CChar>) -> String {
    let length = strlen(text)
    return String(unsafeUninitializedCapacity: length) { buffer in
        text.withMemoryRebound(to: UInt8.self, capacity: length) { source in
            for index in 0..<length {
                let byte = source[index]
                buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            }
        }
        return length
    }
}
