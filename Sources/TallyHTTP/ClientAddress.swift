import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The numeric IP address of the client on `connection` (`127.0.0.1`, `::1`); empty when libmicrohttpd
/// does not know it or it is neither IPv4 nor IPv6.
func clientAddress(_ connection: OpaquePointer) -> String {
    guard let address = tally_mhd_client_address(connection) else { return "" }
    let length: Int
    switch Int32(address.pointee.sa_family) {
    case AF_INET: length = MemoryLayout<sockaddr_in>.size
    case AF_INET6: length = MemoryLayout<sockaddr_in6>.size
    default: return ""
    }
    var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
    let result = getnameinfo(address, socklen_t(length), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
    guard result == 0 else { return "" }
    return host.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// The ``ClientNetwork`` of the client on `connection`: its IPv4 address or its IPv6 /64; empty text when
/// libmicrohttpd does not know the address.
func clientNetwork(_ connection: OpaquePointer) -> ClientNetwork {
    guard let address = tally_mhd_client_address(connection) else { return ClientNetwork(address: "") }
    switch Int32(address.pointee.sa_family) {
    case AF_INET6:
        let bytes = UnsafeRawPointer(address).withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
            withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
        }
        return ClientNetwork(ipv6: bytes)
    default:
        return ClientNetwork(address: clientAddress(connection))
    }
}
