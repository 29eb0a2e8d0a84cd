import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `shutdown(2)`'s both directions (`SHUT_RDWR`, visible through the shim's `sys/socket.h`).
let shutDownBoth = Int32(SHUT_RDWR)

/// Every open connection of one server, by client network: it admits at most
/// ``HTTPServer/Configuration/connectionLimitPerAddress`` connections per ``ClientNetwork`` (an IPv4 address, an
/// IPv6 /64), and closes a connection whose request head is not complete by its deadline
/// (``HTTPServer/Configuration/headTimeoutSeconds``), which a client dripping a byte a second would otherwise
/// hold open for good (any byte resets libmicrohttpd's idle timer).
///
/// libmicrohttpd tells it of each connection's start and end (``connectionNotifyCallback``), and the access
/// handler of each head and each finished request. A thread of its own shuts down (`shutdown(2)`) the sockets past
/// their deadline; libmicrohttpd then reads the end of the stream and closes the connection itself. The socket is
/// shut down only while its connection is in the table, under the lock: libmicrohttpd reports a connection's end
/// before it closes its socket, so a number the system has handed to another connection is never shut down.
///
/// `@unchecked Sendable`: `connections`, `perNetwork` and `stopped` are read and written only while holding
/// `condition`'s lock; the limits are immutable; `thread` is written in `init` and read by ``stop()``.
final class ConnectionWatch: @unchecked Sendable {
    /// One open connection.
    final class Connection {
        let socket: Int32
        let network: ClientNetwork
        /// When its current request's head must be complete, in monotonic seconds; nil while a request is under
        /// way (its head has arrived) or with no head timeout.
        fileprivate var deadline: TimeInterval?
        /// Set once its socket was shut down, so that happens once.
        fileprivate var isShutDown = false

        fileprivate init(socket: Int32, network: ClientNetwork, deadline: TimeInterval?) {
            self.socket = socket
            self.network = network
            self.deadline = deadline
        }
    }

    private let headTimeout: TimeInterval
    private let idleTimeout: TimeInterval
    private let perNetworkLimit: Int
    private let uptime: @Sendable () -> TimeInterval
    private let condition = NSCondition()
    private var connections: [ObjectIdentifier: Connection] = [:]
    private var perNetwork: [ClientNetwork: Int] = [:]
    private var stopped = false
    private var thread: JoinableThread?

    /// Watches with the configuration's limits; throws when the system refuses its thread.
    init(configuration: HTTPServer.Configuration,
         uptime: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }) throws(HTTPServerError) {
        headTimeout = TimeInterval(configuration.headTimeoutSeconds)
        idleTimeout = TimeInterval(configuration.connectionTimeoutSeconds)
        perNetworkLimit = configuration.connectionLimitPerAddress
        self.uptime = uptime
        guard headTimeout > 0 else { return }
        guard let thread = JoinableThread(name: "http-deadline", { [self] in watch() }) else {
            throw .startFailed("the system refused the thread that closes connections past their head deadline; "
                + "raise the process's thread limit (ulimit -u)")
        }
        self.thread = thread
    }

    /// A connection that started on `socket` from `network`: nil when its network already holds the most
    /// connections (the caller shuts it down), else its entry, whose head deadline runs from now.
    func opened(socket: Int32, network: ClientNetwork) -> Connection? {
        condition.lock()
        defer { condition.unlock() }
        let count = perNetwork[network, default: 0]
        if perNetworkLimit > 0 && count >= perNetworkLimit { return nil }
        perNetwork[network] = count + 1
        let connection = Connection(socket: socket, network: network,
                                    deadline: headTimeout > 0 ? uptime() + headTimeout : nil)
        connections[ObjectIdentifier(connection)] = connection
        return connection
    }

    /// The connection's request head has arrived: no deadline while the request is under way.
    func headArrived(_ connection: Connection) {
        condition.lock()
        connection.deadline = nil
        condition.unlock()
    }

    /// The connection's request ended; the next request on it may wait the idle timeout to begin, then has the
    /// head timeout to finish its head.
    func requestEnded(_ connection: Connection) {
        guard headTimeout > 0 else { return }
        condition.lock()
        connection.deadline = uptime() + idleTimeout + headTimeout
        condition.unlock()
    }

    /// The connection ended (its socket is not closed yet): it no longer counts.
    func closed(_ connection: Connection) {
        condition.lock()
        defer { condition.unlock() }
        guard connections.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
        let count = perNetwork[connection.network, default: 1] - 1
        perNetwork[connection.network] = count > 0 ? count : nil
    }

    /// Ends the watching thread (after the daemon stopped). Calling it again does nothing.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        let running = thread
        thread = nil
        condition.unlock()
        running?.join()
    }

    /// How many connections are open now (for tests).
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return connections.count
    }

    /// Shuts down the sockets past their deadline, waking at the next deadline or at least every second.
    private func watch() {
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            let now = uptime()
            var next = now + 1
            for connection in connections.values where !connection.isShutDown {
                guard let deadline = connection.deadline else { continue }
                if deadline <= now {
                    connection.isShutDown = true
                    _ = shutdown(connection.socket, shutDownBoth)
                } else {
                    next = min(next, deadline)
                }
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: max(0.01, next - now)))
        }
    }
}
