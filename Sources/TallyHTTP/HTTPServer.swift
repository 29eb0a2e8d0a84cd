import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server over libmicrohttpd: it listens from `init` until ``stop(gracePeriod:)`` (or deinit), and
/// answers each complete request with what the handler returns. libmicrohttpd parses HTTP; this class only moves
/// requests and responses across.
///
/// `@unchecked Sendable`: `daemon` is read and written only while holding `lock`; `context` and `port` are
/// immutable, and libmicrohttpd's daemon may be stopped from any thread.
public final class HTTPServer: @unchecked Sendable {
    /// The port the server listens on (the one picked when the configuration said 0).
    public let port: UInt16
    /// The configuration the server was started with.
    public let configuration: Configuration

    private let context: ServerContext
    private let lock = NSLock()
    private var daemon: OpaquePointer?

    /// Starts listening on `configuration.host` and `configuration.port`; `handler` answers every request.
    /// The handler must not call ``stop(gracePeriod:)`` (stopping waits for the worker threads, including its own).
    public init(configuration: Configuration, handler: @escaping HTTPHandler) throws(HTTPServerError) {
        try configuration.validate()
        let address = try ListenAddress.Socket(host: configuration.host, port: configuration.port)
        let context = try ServerContext(configuration: configuration, handler: handler)
        var listening = false
        // A server that does not start ends the blocking pool and the watch it started (their threads are joined).
        defer {
            if !listening {
                context.blockingPool?.quit()
                context.watch.stop()
            }
        }
        let started = Self.startDaemon(configuration: configuration, address: address, context: context)
        guard let started else {
            throw address.bindFailure(host: configuration.host, port: configuration.port)
                ?? .startFailed("libmicrohttpd refused the configuration for \(configuration.host):\(configuration.port)")
        }
        let boundPort = tally_mhd_bind_port(started)
        guard boundPort != 0 else {
            MHD_stop_daemon(started)
            throw .startFailed("libmicrohttpd did not report the port it listens on")
        }
        listening = true
        self.configuration = configuration
        self.context = context
        self.daemon = started
        self.port = boundPort
    }

    deinit {
        stop()
    }

    /// Stops the server. With a grace period it first stops accepting connections (new ones are refused),
    /// lets the requests in flight finish and their responses go out (each with `Connection: close`), for at most
    /// `gracePeriod` seconds; then, or at once without one, it closes every connection, waiting for running
    /// handlers to return. Calling it again does nothing.
    public func stop(gracePeriod: TimeInterval = 0) {
        lock.lock()
        let running = daemon
        daemon = nil
        lock.unlock()
        guard let running else { return }
        var listener = MHD_INVALID_SOCKET
        if gracePeriod > 0 {
            context.isDraining.withLock { $0 = true }
            listener = MHD_quiesce_daemon(running)
            if listener != MHD_INVALID_SOCKET {
                // libmicrohttpd no longer accepts; shutting the socket down (it stays open until the daemon is
                // stopped, as libmicrohttpd asks) makes the kernel refuse new connections instead of queueing them.
                _ = shutdown(listener, Int32(SHUT_RDWR))
            }
            // The system's uptime: monotonic, whatever the wall clock does.
            let deadline = ProcessInfo.processInfo.systemUptime + gracePeriod
            while context.liveRequests.value > 0 && ProcessInfo.processInfo.systemUptime < deadline {
                usleep(5_000)
            }
        }
        // Every request on the blocking pool resumes its connection before the daemon stops (libmicrohttpd
        // forbids stopping with a connection suspended); requests completing from now on run on their worker.
        context.blockingPool?.close()
        context.blockingPool?.waitUntilIdle()
        MHD_stop_daemon(running)
        context.blockingPool?.quit()
        context.watch.stop()
        if listener != MHD_INVALID_SOCKET {
            close(listener)
        }
    }

    /// Requests in flight now: from the moment their head arrived until their response was sent (or their
    /// connection died). 0 after ``stop(gracePeriod:)``, unless one leaked.
    public var requestsInFlight: Int { context.liveRequests.value }

    /// Whether the server is still listening.
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return daemon != nil
    }
}
