import CMicroHTTPD
import Foundation

/// An HTTP/1.1 server over libmicrohttpd: it listens from `init` until ``stop()`` (or deinit), and answers
/// each complete request with what the handler returns. libmicrohttpd parses HTTP; this class only moves
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
    /// The handler must not call ``stop()`` (stopping waits for the worker threads, including its own).
    public init(configuration: Configuration, handler: @escaping HTTPHandler) throws(HTTPServerError) {
        try configuration.validate()
        let address = try ListenAddress.Socket(host: configuration.host, port: configuration.port)
        let context = ServerContext(
            handler: handler, rejection: configuration.rejection, maxBodyBytes: configuration.maxBodyBytes)
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
        self.configuration = configuration
        self.context = context
        self.daemon = started
        self.port = boundPort
    }

    deinit {
        stop()
    }

    /// Stops listening and closes every connection, waiting for running handlers to return. Calling it again
    /// does nothing.
    public func stop() {
        lock.lock()
        let running = daemon
        daemon = nil
        lock.unlock()
        if let running {
            MHD_stop_daemon(running)
        }
    }

    #if DEBUG
    /// Requests whose state is still allocated (debug builds only): 0 after ``stop()`` unless one leaked.
    var liveRequestCount: Int { context.liveRequests.value }
    #endif

    /// Whether the server is still listening.
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return daemon != nil
    }
}
