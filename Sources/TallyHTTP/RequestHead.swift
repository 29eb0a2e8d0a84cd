import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The request line, query and headers of the request on `connection`, with an empty body, and the header
/// fields one by one (lower-cased names, in the order sent) for the framing checks.
func requestHead(connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?)
    -> (request: HTTPRequest, fields: [(name: String, value: String)])
{
    var request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "",
        remoteAddress: clientAddress(connection))
    var fields: [(name: String, value: String)] = []
    withUnsafeMutablePointer(to: &fields) { fields in
        _ = MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, UnsafeMutableRawPointer(fields))
    }
    for field in fields {
        if let existing = request.headers[field.name] {
            request.headers[field.name] = existing + ", " + field.value
        } else {
            request.headers[field.name] = field.value
        }
    }
    withUnsafeMutablePointer(to: &request.queryItems) { items in
        _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectQueryItem, UnsafeMutableRawPointer(items))
    }
    for item in request.queryItems { request.query[item.name] = item.value }
    return (request, fields)
}

/// Appends one header field to the `[(name:value:)]` behind `context`, its name lower-cased.
private func collectHeader(
    _ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let context, let key else { return .YES }
    let fields = context.assumingMemoryBound(to: [(name: String, value: String)].self)
    fields.pointee.append((asciiLowercased(key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

/// Appends one query parameter, decoded, to the `[HTTPRequest.QueryItem]` behind `context`.
private func collectQueryItem(
    _ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let context, let key else { return .YES }
    let items = context.assumingMemoryBound(to: [HTTPRequest.QueryItem].self)
    items.pointee.append(HTTPRequest.QueryItem(
        name: HTTPRequest.decodeQueryComponent(String(cString: key)),
        value: value.map { HTTPRequest.decodeQueryComponent(String(cString: $0)) } ?? ""))
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
