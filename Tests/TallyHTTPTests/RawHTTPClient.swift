import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A response as the raw client read it.
struct RawResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
}

struct RawClientError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A blocking loopback TCP client over POSIX sockets, so tests control exactly which bytes go out and when
/// (keep-alive, pipelining, partial writes). It reads responses framed by `Content-Length` only.
final class RawHTTPClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port` from the loopback address `source` (127.0.0.2 and up exist on Linux only);
    /// throws when the connection is refused.
    init(port: UInt16, from source: String = "127.0.0.1") throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw RawClientError("socket() failed: errno \(errno)") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw RawClientError("bind(\(source)) failed: errno \(code)")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw RawClientError("connect() failed: errno \(code)")
        }
        // A safety net so a broken server fails the test instead of hanging it; no assertion depends on it.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Sends all of `text`.
    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw RawClientError("write() failed: errno \(errno)") }
            offset += written
        }
    }

    /// Reads one response: status line, header fields, then `Content-Length` bytes of body.
    func readResponse() throws -> RawResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            headEnd = firstRange(of: separator)
            if headEnd == nil { try fill() }
        }
        guard let headEnd else { throw RawClientError("no header end") }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + separator.count)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw RawClientError("bad status line in \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length { try fill() }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// Everything the server sends until it closes the connection.
    func readToEnd() throws -> [UInt8] {
        while true {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 || (count < 0 && errno == ECONNRESET) {
                defer { buffer = [] }
                return buffer
            }
            guard count > 0 else { throw RawClientError("read() failed: errno \(errno)") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Sends `bytes` without waiting, ignoring a connection the server already closed (no SIGPIPE).
    func sendQuietly(_ bytes: [UInt8]) {
        #if canImport(Glibc)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        #else
        _ = bytes.withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, MSG_DONTWAIT) }
        #endif
    }

    /// Whether the server still holds the connection open: nothing to read and no end of file, now.
    func isOpen() -> Bool {
        var byte: UInt8 = 0
        #if canImport(Glibc)
        let flags = Int32(MSG_DONTWAIT | MSG_PEEK)
        #else
        let flags = MSG_DONTWAIT | MSG_PEEK
        #endif
        let count = recv(descriptor, &byte, 1, flags)
        return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    /// Whether the server closed the connection: reads until end of file, ignoring any bytes.
    func isClosedByServer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { throw RawClientError(count == 0 ? "connection closed" : "read() failed: errno \(errno)") }
        buffer.append(contentsOf: chunk[..<count])
    }

    private func firstRange(of pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for start in 0...(buffer.count - pattern.count) where buffer[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }
}
