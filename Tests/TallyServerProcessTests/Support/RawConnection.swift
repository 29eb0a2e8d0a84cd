import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to 127.0.0.1, for what URLSession cannot send: malformed request lines,
/// garbage, half requests, byte-by-byte writes, and keep-alive connections driven from plain threads.
/// Reads time out (so a silent server fails the test instead of hanging it). Closed when released.
final class RawConnection {
    private var socket: Int32
    /// Bytes read past the last response.
    private var pending = Data()

    /// Connects to `127.0.0.1:port`; reads give up after `readTimeout` seconds.
    init(port: Int, readTimeout: Int = 60) throws {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close()
            throw HarnessError("connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
    }

    deinit { close() }

    /// Closes the connection (again is harmless).
    func close() {
        guard socket >= 0 else { return }
        #if canImport(Glibc)
        Glibc.close(socket)
        #else
        Darwin.close(socket)
        #endif
        socket = -1
    }

    /// Writes every byte; throws when the peer is gone.
    func send(_ bytes: some Collection<UInt8>) throws {
        let buffer = Array(bytes)
        var offset = 0
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        while offset < buffer.count {
            let sent = buffer[offset...].withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.send(socket, raw.baseAddress, raw.count, flags)
                #else
                Darwin.send(socket, raw.baseAddress, raw.count, flags)
                #endif
            }
            guard sent > 0 else { throw HarnessError("send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Writes the UTF-8 of `text`.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Reads what is available (blocking until something arrives); empty at end of file.
    func receive() throws -> Data {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { raw in recv(socket, raw.baseAddress, raw.count, 0) }
        if count < 0 {
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK { throw HarnessError("no answer within the read timeout") }
            if code == ECONNRESET { return Data() }
            throw HarnessError("recv failed: errno \(code)")
        }
        return Data(buffer[0..<count])
    }

    /// Takes the bytes read past the last response.
    func takePending() -> Data {
        defer { pending = Data() }
        return pending
    }

    /// Keeps bytes read past a response for the next read.
    func putBack(_ bytes: Data) { pending = bytes }

    /// Reads until the server closes the connection; everything it sent.
    func readToEnd() throws -> Data {
        var all = pending
        pending = Data()
        while true {
            let chunk = try receive()
            if chunk.isEmpty { return all }
            all.append(chunk)
        }
    }
}
