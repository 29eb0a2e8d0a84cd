/// Why an ``HTTPServer`` could not start.
public enum HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `host` is not a numeric IPv4 or IPv6 address.
    case invalidAddress(String)
    /// Another socket already listens on this address and port: stop it or choose another port.
    case addressInUse(host: String, port: UInt16)
    /// The address does not belong to this machine.
    case addressNotAvailable(host: String, port: UInt16)
    /// The process may not bind this port (ports below 1024 need privileges).
    case permissionDenied(host: String, port: UInt16)
    /// A configuration number is out of range; the text names it.
    case invalidConfiguration(String)
    /// libmicrohttpd refused to start for another reason; the text says what was tried.
    case startFailed(String)

    /// A sentence naming the problem and what to do.
    public var description: String {
        switch self {
        case .invalidAddress(let host):
            "invalid listen address \"\(host)\": use a numeric IPv4 or IPv6 address such as 127.0.0.1 or ::1"
        case .addressInUse(let host, let port):
            "cannot listen on \(host):\(port): the address is already in use; stop the other server or pick another port"
        case .addressNotAvailable(let host, let port):
            "cannot listen on \(host):\(port): the address is not one of this machine's"
        case .permissionDenied(let host, let port):
            "cannot listen on \(host):\(port): permission denied (ports below 1024 need privileges)"
        case .invalidConfiguration(let text):
            "invalid HTTP server configuration: \(text)"
        case .startFailed(let text):
            "the HTTP server did not start: \(text)"
        }
    }
}
