/// The framing rules libmicrohttpd 0.9.75 leaves open, checked on the header fields it has already parsed,
/// before any body is read (RFC 9112 §3.2, §6.1, §6.3). libmicrohttpd itself refuses a malformed request line,
/// header line or `Content-Length` value; this only looks at which fields came and how often.
enum RequestFraming {
    /// The refusal for a request head with these fields (lower-cased names, in order) and this HTTP version
    /// (`HTTP/1.1`); nil when the head frames its body unambiguously.
    static func refusal(fields: [(name: String, value: String)], version: String) -> HTTPRefusal? {
        var hosts = 0, lengths = 0
        var codings: [String] = []
        for field in fields {
            switch field.name {
            case "host": hosts += 1
            case "content-length": lengths += 1
            case "transfer-encoding": codings.append(field.value)
            default: break
            }
        }
        if hosts > 1 { return .malformedRequest("the request has \(hosts) Host headers; send one") }
        if hosts == 0, version == "HTTP/1.1" {
            return .malformedRequest("an HTTP/1.1 request needs a Host header")
        }
        if lengths > 1 { return .malformedRequest("the request has \(lengths) Content-Length headers; send one") }
        guard let coding = codings.first else { return nil }
        if lengths > 0 {
            return .malformedRequest("the request has both Content-Length and Transfer-Encoding; send one of them")
        }
        if version != "HTTP/1.1" {
            return .malformedRequest("Transfer-Encoding needs HTTP/1.1, not \(version)")
        }
        if codings.count > 1 {
            return .malformedRequest("the request has \(codings.count) Transfer-Encoding headers; send one")
        }
        if coding.utf8.elementsEqual("chunked".utf8, by: { $0 | 0x20 == $1 }) { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        if coding.utf8.isEmpty || coding.utf8.first.map(isBlank) == true || coding.utf8.last.map(isBlank) == true {
            return .malformedRequest("Transfer-Encoding \"\(coding)\" is malformed; send exactly \"chunked\"")
        }
        return .unsupportedTransferCoding("Transfer-Encoding \"\(coding)\" is not supported; send \"chunked\" or Content-Length")
    }
}
