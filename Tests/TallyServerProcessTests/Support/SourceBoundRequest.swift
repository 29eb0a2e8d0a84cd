import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends one `Connection: close` request (with `body`, when given) to `127.0.0.1:port` from the local address
/// `source` (any 127.x.y.z on Linux's loopback) and returns the status of the answer, so tests can be two clients.
func requestStatus(port: Int, from source: String, _ method: String, _ path: String,
                   key: String? = nil, body: [UInt8]? = nil) throws -> Int {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    func address(_ host: String, _ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }
    var local = address(source, 0)
    let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw HarnessError("bind to \(source) failed: errno \(errno)") }
    var remote = address("127.0.0.1", port)
    let connected = withUnsafePointer(to: &remote) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw HarnessError("connect from \(source) failed: errno \(errno)") }
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if let key { head += "Authorization: Bearer \(key)\r\n" }
    if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
    let bytes = Array((head + "\r\n").utf8) + (body ?? [])
    var offset = 0
    while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent > 0 else { throw HarnessError("send failed: errno \(errno)") }
        offset += sent
    }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while !answer.contains(UInt8(ascii: "\n")) {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        answer += buffer[..<count]
    }
    let line = String(decoding: answer.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { throw HarnessError("no status line from the server: '\(line)'") }
    return status
}
