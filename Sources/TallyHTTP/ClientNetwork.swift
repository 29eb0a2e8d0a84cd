#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The client a per-client limit counts: an IPv4 address as it is, an IPv6 address by its /64 network. One home
/// line or phone is handed a whole IPv6 /64, so counting single IPv6 addresses would give one client 2^64 shares.
/// An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) counts as its IPv4 address.
public struct ClientNetwork: Sendable, Hashable, CustomStringConvertible {
    /// Numeric text: `192.0.2.1`, or `2001:db8:1:2::/64`; for an address that is neither, the text as given.
    public let description: String

    /// The network of `address`, numeric text as ``HTTPRequest/remoteAddress`` holds it (`127.0.0.1`, `::1`).
    public init(address: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            self.init(text: address)
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else {
            self.init(text: address)
            return
        }
        self.init(ipv6: withUnsafeBytes(of: v6) { Array($0) })
    }

    /// The network of an IPv6 address's 16 bytes.
    init(ipv6 bytes: [UInt8]) {
        self.init(text: Self.text(ipv6: bytes))
    }

    private init(text: String) {
        description = text
    }

    /// The network of an IPv6 address's 16 bytes (a mapped IPv4 address as that address).
    static func text(ipv6 bytes: [UInt8]) -> String {
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        var network = in6_addr()
        withUnsafeMutableBytes(of: &network) { raw in
            for index in 0..<8 { raw[index] = bytes[index] }
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &network, &text, socklen_t(text.count)) != nil else {
            return bytes[0..<8].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
        }
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } + "/64"
    }
}

extension HTTPRequest {
    /// The client this request counts against in per-client limits: ``remoteAddress``'s ``ClientNetwork``.
    public var clientNetwork: ClientNetwork { ClientNetwork(address: remoteAddress) }
}
