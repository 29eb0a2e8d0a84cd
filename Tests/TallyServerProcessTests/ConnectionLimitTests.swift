import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServerProcessTests {
    /// Connection limits with the default configuration (docs/server.md, *HTTP*), and the limit keys' checks.
    @Suite struct ConnectionLimits {
        #if os(Linux)
        /// 1,100 half-open connections from 127.0.0.1, each dripping a header byte every second, hold at most
        /// `limits.maxConnectionsPerIP` (100) slots; a client on 127.0.0.2 is answered throughout. Linux only:
        /// macOS has no 127.0.0.2 unless it is configured.
        @Test func halfOpenConnectionsFromOneAddressDoNotLockOutAnother() async throws {
            try raiseOpenFileLimit(to: 4_096)
            let fixture = try ServerFixture()
            let port = UInt16(fixture.server.port)
            var attackers: [LoopbackSocket] = []
            for _ in 0..<1_100 {
                let socket = try LoopbackSocket(port: port, from: "127.0.0.1")
                socket.sendQuietly(Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: ".utf8))
                attackers.append(socket)
            }
            var slowest: Double = 0
            let end = Date().addingTimeInterval(8)
            var round = 0
            while Date() < end {
                for socket in attackers { socket.sendQuietly([UInt8(ascii: "a")]) }
                let start = Date()
                let client = try LoopbackSocket(port: port, from: "127.0.0.2", readTimeout: 5)
                let answer = client.exchange("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                slowest = max(slowest, Date().timeIntervalSince(start))
                #expect(answer.hasPrefix("HTTP/1.1 200 "), "round \(round): 127.0.0.2 got \(answer.prefix(200))")
                round += 1
                usleep(1_000_000)
            }
            let held = attackers.filter { $0.isOpen() }.count
            #expect(held > 0 && held <= 100, "127.0.0.1 holds \(held) connections; the per-IP default is 100")
            #expect(slowest < 3, "127.0.0.2 waited \(slowest) s")
            attackers.removeAll()
        }

        /// Issue 27 item 8: 12 addresses × 92 connections, each dripping a header byte a second (which resets the
        /// idle timer), held all 1,000 slots for good. Here 12 addresses × 10 such connections are all closed at the
        /// head deadline (`limits.headTimeoutSeconds`, 2 s), and a client on another address is served meanwhile.
        @Test func drippingHeadsFromManyAddressesAreClosedAtTheHeadDeadline() throws {
            try raiseOpenFileLimit(to: 1_024)
            let fixture = try ServerFixture()
            try fixture.reconfigure { $0["limits"] = ["headTimeoutSeconds": 2] }
            let port = UInt16(fixture.server.port)
            let start = Date()
            var attackers: [LoopbackSocket] = []
            for address in 1...12 {
                for _ in 0..<10 {
                    let socket = try LoopbackSocket(port: port, from: "127.0.0.\(10 + address)")
                    socket.sendQuietly(Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: ".utf8))
                    attackers.append(socket)
                }
            }
            usleep(300_000)
            #expect(attackers.filter { $0.isOpen() }.count == attackers.count, "every dripping connection was admitted")
            var allClosedAfter: Double?
            while allClosedAfter == nil && Date().timeIntervalSince(start) < 10 {
                for socket in attackers { socket.sendQuietly([UInt8(ascii: "a")]) }
                let client = try LoopbackSocket(port: port, from: "127.0.0.200", readTimeout: 5)
                let answer = client.exchange("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                #expect(answer.hasPrefix("HTTP/1.1 200 "), "127.0.0.200 got \(answer.prefix(200))")
                usleep(500_000)
                if attackers.allSatisfy({ !$0.isOpen() }) { allClosedAfter = Date().timeIntervalSince(start) }
            }
            let after = try #require(allClosedAfter, "dripping connections were still open after 10 s")
            #expect(after < 5, "the last dripping connection was closed after \(after) s; the head deadline is 2 s")
        }
        #endif

        /// (what, the `limits` object as JSON, the path the error must name)
        static let broken: [(String, String, String)] = [
            ("a negative connection limit", #"{"maxConnections": -1}"#, "limits.maxConnections"),
            ("a per-IP limit above the total", #"{"maxConnections": 10, "maxConnectionsPerIP": 11}"#,
             "limits.maxConnectionsPerIP"),
            ("an idle timeout of 0", #"{"idleTimeoutSeconds": 0}"#, "limits.idleTimeoutSeconds"),
            ("a head timeout of 0", #"{"headTimeoutSeconds": 0}"#, "limits.headTimeoutSeconds"),
            ("a text grace period", #"{"shutdownGraceSeconds": "long"}"#, "limits.shutdownGraceSeconds"),
            ("a transaction limit above maxBodyBytes", #"{"maxBodyBytes": 1000, "maxTransactionBodyBytes": 2000}"#,
             "limits.maxTransactionBodyBytes"),
            ("a spend limit of 0", #"{"maxSpendBodyBytes": 0}"#, "limits.maxSpendBodyBytes"),
            ("an unknown limit", #"{"maxSockets": 5}"#, "limits.maxSockets"),
        ]

        @Test(arguments: 0..<broken.count)
        func aBadLimitExits2NamingItsPath(_ index: Int) throws {
            let (what, limits, path) = Self.broken[index]
            let fixture = try ServerFixture()
            try fixture.server.killNow()
            var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.configFile))
                                        as? [String: Any])
            document["limits"] = try JSONSerialization.jsonObject(with: Data(limits.utf8))
            let broken = fixture.directory.appendingPathComponent("broken.json")
            try JSONSerialization.data(withJSONObject: document).write(to: broken)
            let exit = try ServerProcess.runToExit(data: fixture.dataDirectory, config: broken)
            #expect(exit.status == 2, "\(what): exit \(exit.status), stderr: \(exit.stderr)")
            #expect(exit.stderr.contains("- \(path):"), "\(what): stderr does not name '\(path)': \(exit.stderr)")
        }

        @Test func theLimitKeysAreReadAndApplied() throws {
            let fixture = try ServerFixture()
            try fixture.server.killNow()
            var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.configFile))
                                        as? [String: Any])
            document["limits"] = ["maxConnections": 20, "maxConnectionsPerIP": 2, "idleTimeoutSeconds": 1,
                                  "maxSpendBodyBytes": 100, "shutdownGraceSeconds": 1]
            let config = fixture.directory.appendingPathComponent("limits.json")
            try JSONSerialization.data(withJSONObject: document).write(to: config)
            let server = try ServerProcess(data: fixture.dataDirectory, config: config)
            let port = UInt16(server.port)
            // Two connections from one address are the most; a third is closed at once.
            let first = try LoopbackSocket(port: port, from: "127.0.0.1", readTimeout: 5)
            let second = try LoopbackSocket(port: port, from: "127.0.0.1", readTimeout: 5)
            first.sendQuietly(Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Wait: ".utf8))
            second.sendQuietly(Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Wait: ".utf8))
            usleep(200_000)
            let third = try LoopbackSocket(port: port, from: "127.0.0.1", readTimeout: 5)
            #expect(third.exchange("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").isEmpty, "a third connection was served")
            // A silent connection is closed after idleTimeoutSeconds (1 s), well before the 30 s default.
            let start = Date()
            #expect(first.readAll().isEmpty)
            #expect(Date().timeIntervalSince(start) < 4, "the idle connection lived \(Date().timeIntervalSince(start)) s")
            // The spend route's body limit: 101 bytes is 413 before the body is sent.
            let spend = try LoopbackSocket(port: port, from: "127.0.0.1", readTimeout: 5)
            let answer = spend.exchange("POST /v1/customers/u/currencies/coins/spend HTTP/1.1\r\nHost: x\r\n"
                                        + "Content-Length: 101\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 413 "), "\(answer)")
            #expect(answer.contains("larger than 100 bytes"), "\(answer)")
            _ = second
            #expect(try server.terminate() == 0)
        }
    }
}

/// Raises this process's soft open-file limit to at least `count` (within the hard limit).
func raiseOpenFileLimit(to count: Int) throws {
    var limit = rlimit()
    #if canImport(Glibc)
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { throw HarnessError("getrlimit failed: errno \(errno)") }
    guard limit.rlim_cur < rlim_t(count) else { return }
    limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
    guard setrlimit(resource, &limit) == 0, limit.rlim_cur >= rlim_t(count) else {
        throw HarnessError("cannot raise the open-file limit to \(count) (hard limit \(limit.rlim_max))")
    }
}

/// A TCP connection to 127.0.0.1 from a chosen loopback source address (127.0.0.2 and up exist on Linux), for
/// tests that need many connections or another client address. Closed when released.
final class LoopbackSocket {
    private let descriptor: Int32

    init(port: UInt16, from source: String, readTimeout: Int = 10) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = port.bigEndian
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) } }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw HarnessError("bind(\(source)) failed: errno \(code)")
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, size) }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw HarnessError("connect from \(source) failed: errno \(code)")
        }
    }

    deinit { close(descriptor) }

    /// Sends `bytes`, ignoring a connection the server already closed.
    func sendQuietly(_ bytes: [UInt8]) {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL | MSG_DONTWAIT)
        #else
        let flags = MSG_DONTWAIT
        #endif
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
    }

    /// Sends `request` and reads until the server closes the connection (or the read timeout).
    func exchange(_ request: String) -> String {
        sendQuietly(Array(request.utf8))
        return readAll()
    }

    /// Everything received until the server closes the connection or the read timeout passes.
    func readAll() -> String {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return String(decoding: all, as: UTF8.self) }
            all.append(contentsOf: chunk[..<count])
        }
    }

    /// Whether the server still holds the connection open (nothing to read, no end of file).
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
}
