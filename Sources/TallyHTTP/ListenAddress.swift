/// Where a server listens, as configured (`HOST:PORT`): a host and a port (0 picks a free one). ``HTTPServer``
/// binds numeric IPv4 and IPv6 hosts only.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host, without brackets.
    public var host: String
    /// The port, 0…65535.
    public var port: Int

    /// Creates an address.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` (`127.0.0.1:8080`, `[::1]:0`); nil when it is not of that form.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65_535).contains(port), !text[text.index(after: colon)...].hasPrefix("+") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { return nil }
        self.init(host: host, port: port)
    }

    /// `HOST:PORT`, with brackets around an IPv6 host.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
