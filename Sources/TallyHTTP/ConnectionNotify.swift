import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libmicrohttpd's connection-notify callback (`MHD_OPTION_NOTIFY_CONNECTION`), on the connection's worker thread.
/// At the start it counts the connection in the server's ``ConnectionWatch`` and keeps a retained pointer to its
/// entry in the connection's socket context, or shuts the socket down when the client's network already holds the
/// most connections (libmicrohttpd then reads the end of the stream and closes it). At the end it releases the
/// entry exactly once. libmicrohttpd reports the end before it closes the socket.
func connectionNotifyCallback(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode
) {
    guard let context, let connection, let socketContext else { return }
    let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        let socket = tally_mhd_connection_socket(connection)
        guard socket >= 0 else { return }
        guard let entry = server.watch.opened(socket: socket, network: clientNetwork(connection)) else {
            _ = shutdown(socket, shutDownBoth)
            return
        }
        socketContext.pointee = Unmanaged.passRetained(entry).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        guard let pointer = socketContext.pointee else { return }
        socketContext.pointee = nil
        let entry = Unmanaged<ConnectionWatch.Connection>.fromOpaque(pointer).takeRetainedValue()
        server.watch.closed(entry)
    }
}

/// The ``ConnectionWatch`` entry of `connection`, when its start was counted.
func watchedConnection(_ connection: OpaquePointer) -> ConnectionWatch.Connection? {
    guard let pointer = tally_mhd_socket_context(connection) else { return nil }
    return Unmanaged<ConnectionWatch.Connection>.fromOpaque(pointer).takeUnretainedValue()
}
