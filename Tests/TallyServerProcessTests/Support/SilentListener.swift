import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP listener on 127.0.0.1 that accepts every connection and never reads or answers: an App Store Server API
/// that hangs. Its connections stay open until it is released.
final class SilentListener: Sendable {
    /// The port it listens on.
    let port: Int
    private let socket: Int32
    /// The connections accepted so far (held open).
    private let accepted = Locked([Int32]())
    private let done = DispatchSemaphore(value: 0)

    /// `http://127.0.0.1:PORT`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// How many connections it accepted.
    var connectionCount: Int { accepted.withLock { $0.count } }

    /// Listens on a free port and starts accepting on a thread of its own.
    init() throws {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && listen(socket, 256) == 0
                    && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            _ = close(socket)
            throw HarnessError("bind/listen on 127.0.0.1 failed: errno \(code)")
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [accepted, done] in
            while true {
                let connection = accept(socket, nil, nil)
                guard connection >= 0 else { break }  // shut down by deinit
                accepted.withLock { $0.append(connection) }
            }
            done.signal()
        }
        thread.start()
    }

    deinit {
        _ = shutdown(socket, Int32(SHUT_RDWR))  // wakes the accepting thread
        done.wait()
        _ = close(socket)
        for connection in accepted.withLock({ $0 }) { _ = close(connection) }
    }
}
