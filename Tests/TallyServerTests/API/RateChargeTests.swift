import Foundation
import TallyHTTP
import Testing
@testable import TallyServer

@Suite("which rate buckets a request is counted in")
struct RateChargeTests {
    static let limits = ServerLimits(requestsPerSecond: 1, burst: 2)
    static let app = APIKeyEntry(name: "app", role: .public, sha256: [1])

    /// Takes `count` tokens for `appUserId` from `address`; the statuses as 200 or 429.
    func statuses(_ limiter: RateLimiter, _ appUserId: String, from address: String, verified: Bool = false,
                  count: Int) -> [Int] {
        (0..<count).map { _ in
            let charge = RateCharge.key(Self.app, appUserId: appUserId, from: ClientNetwork(address: address),
                                        customerVerified: verified, limits: Self.limits)
            return limiter.acquire(charge.buckets) == nil ? 200 : 429
        }
    }

    @Test("a public key's customer bucket is per address; a verified customer token has one bucket everywhere")
    func customerBuckets() {
        let limiter = RateLimiter(uptime: { 0 })
        #expect(statuses(limiter, "victim", from: "192.0.2.9", count: 3) == [200, 200, 429])
        #expect(statuses(limiter, "victim", from: "192.0.2.1", count: 1) == [200], "a stranger elsewhere spent none")
        #expect(statuses(limiter, "victim", from: "2001:db8:0:7::1", verified: true, count: 1) == [200])
        #expect(statuses(limiter, "victim", from: "192.0.2.1", verified: true, count: 2) == [200, 429],
                "the verified bucket is the customer's wherever the request comes from")
    }

    @Test("a public key from one address (an IPv6 /64) takes at most its share of the ceiling")
    func addressShare() {
        var limits = Self.limits
        limits.publicKeyPerAddressRequestsPerSecond = 1
        limits.publicKeyPerAddressBurst = 3
        let limiter = RateLimiter(uptime: { 0 })
        let statuses = (0..<5).map { index in
            let charge = RateCharge.key(Self.app, appUserId: "user-\(index)", from: ClientNetwork(address: "2001:db8::\(index)"),
                                        customerVerified: false, limits: limits)
            return limiter.acquire(charge.buckets) == nil ? 200 : 429
        }
        #expect(statuses == [200, 200, 200, 429, 429], "one /64 over five ids and addresses: \(statuses)")
        let elsewhere = RateCharge.key(Self.app, appUserId: "user-0", from: ClientNetwork(address: "2001:db8:0:1::1"),
                                       customerVerified: false, limits: limits)
        #expect(limiter.acquire(elsewhere.buckets) == nil, "the next /64 has its own share")
    }

    @Test("a secret key has one bucket; no key counts per address")
    func otherKeys() {
        let charge = RateCharge.key(APIKeyEntry(name: "backend", role: .secret, sha256: [2]), appUserId: "a",
                                    from: ClientNetwork(address: "192.0.2.1"), customerVerified: false, limits: Self.limits)
        #expect(charge.buckets.map(\.0) == [.key(sha256: [2])])
        let unknown = RateCharge.unknownKey(from: ClientNetwork(address: "2001:db8::1"), limits: Self.limits)
        #expect(unknown.buckets.map(\.0) == [.address("2001:db8::/64")])
    }
}
