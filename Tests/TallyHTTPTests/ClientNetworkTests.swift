import Testing
import TallyHTTP

/// What per-client limits count: an IPv4 address, an IPv6 /64.
@Suite struct ClientNetworkTests {
    @Test func anIPv4AddressIsItself() {
        #expect(ClientNetwork(address: "192.0.2.7").description == "192.0.2.7")
        #expect(ClientNetwork(address: "192.0.2.7") != ClientNetwork(address: "192.0.2.8"))
    }

    @Test func anIPv6AddressCountsByItsSlash64() {
        let one = ClientNetwork(address: "2001:db8:1:2:aaaa:bbbb:cccc:dddd")
        let other = ClientNetwork(address: "2001:db8:1:2::1")
        #expect(one == other && one.description == "2001:db8:1:2::/64")
        #expect(ClientNetwork(address: "2001:db8:1:3::1") != one, "the next /64 is another client")
        #expect(ClientNetwork(address: "::1").description == "::/64")
    }

    @Test func aMappedIPv4AddressCountsAsIPv4() {
        #expect(ClientNetwork(address: "::ffff:192.0.2.7") == ClientNetwork(address: "192.0.2.7"))
    }

    @Test func textThatIsNoAddressStaysAsGiven() {
        #expect(ClientNetwork(address: "").description == "")
        #expect(ClientNetwork(address: "not an address").description == "not an address")
    }

    @Test func aRequestCountsByItsRemoteAddress() {
        let request = HTTPRequest(method: "GET", path: "/", remoteAddress: "2001:db8::5")
        #expect(request.clientNetwork.description == "2001:db8::/64")
    }
}
