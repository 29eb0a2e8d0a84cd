#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ListenAddress {
    /// The numeric IPv4 or IPv6 socket address of a host and port, for `MHD_OPTION_SOCK_ADDR`.
    struct Socket: Sendable {
        /// The address family and its socket address.
        enum Storage: Sendable {
            case v4(sockaddr_in)
            case v6(sockaddr_in6)
        }

        let storage: Storage

        /// Parses `host` (brackets around IPv6 allowed); throws ``HTTPServerError/invalidAddress(_:)`` otherwise.
        init(host: String, port: UInt16) throws(HTTPServerError) {
            var text = host
            if text.hasPrefix("["), text.hasSuffix("]"), text.count >= 2 {
                text = String(text.dropFirst().dropLast())
            }
            var v4 = sockaddr_in()
            if inet_pton(AF_INET, text, &v4.sin_addr) == 1 {
                v4.sin_family = sa_family_t(AF_INET)
                v4.sin_port = port.bigEndian
                #if canImport(Darwin)
                v4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
                #endif
                storage = .v4(v4)
                return
            }
            var v6 = sockaddr_in6()
            if inet_pton(AF_INET6, text, &v6.sin6_addr) == 1 {
                v6.sin6_family = sa_family_t(AF_INET6)
                v6.sin6_port = port.bigEndian
                #if canImport(Darwin)
                v6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
                #endif
                storage = .v6(v6)
                return
            }
            throw .invalidAddress(host)
        }

        /// Whether this is an IPv6 address (libmicrohttpd then needs `MHD_USE_IPv6`).
        var isIPv6: Bool {
            if case .v6 = storage { return true }
            return false
        }

        /// Calls `body` with a pointer to the `sockaddr` and its length; the pointer is valid only inside `body`.
        func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
            switch storage {
            case .v4(let address): Self.withGeneric(address, body)
            case .v6(let address): Self.withGeneric(address, body)
            }
        }

        /// `address` (a `sockaddr_in` or `sockaddr_in6`) seen as a generic `sockaddr`, with its length.
        private static func withGeneric<Address, Result>(
            _ address: Address, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
        ) -> Result {
            withUnsafePointer(to: address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<Address>.size))
                }
            }
        }

        /// After libmicrohttpd refused to start, binds a throwaway socket to the same address to learn why
        /// (libmicrohttpd does not report it); returns nil when that bind succeeds.
        func bindFailure(host: String, port: UInt16) -> HTTPServerError? {
            #if canImport(Glibc)
            let streamType = Int32(SOCK_STREAM.rawValue)
            #else
            let streamType = SOCK_STREAM
            #endif
            let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, streamType, 0)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var reuse: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
            let result = withSocketAddress { bind(descriptor, $0, $1) }
            guard result != 0 else { return nil }
            switch errno {
            case EADDRINUSE: return .addressInUse(host: host, port: port)
            case EADDRNOTAVAIL: return .addressNotAvailable(host: host, port: port)
            case EACCES: return .permissionDenied(host: host, port: port)
            default: return .startFailed("bind to \(host):\(port) failed with errno \(errno)")
            }
        }
    }
}
