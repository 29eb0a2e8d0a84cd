import TallyCore
import TallyHTTP

/// The buckets of ``RateLimiter`` one request is counted in, and how a refusal names them. The one place that
/// decides which requests share a bucket.
struct RateCharge {
    /// The buckets with their rates; a request takes a token from each, or from none.
    var buckets: [(RateLimiter.Bucket, RateLimiter.Rate)]
    /// What the 429 says ran out (`"this key"`).
    var scope: String

    /// A request with no key or an unknown key: one bucket per client network (an IPv6 /64).
    static func unknownKey(from network: ClientNetwork, limits: ServerLimits) -> RateCharge {
        let rate = RateLimiter.Rate(perSecond: limits.unknownKeyRequestsPerSecond, burst: Double(limits.unknownKeyBurst))
        return RateCharge(buckets: [(.address(network.description), rate)],
                          scope: "this address without a configured key")
    }

    /// A body the notification route refused (malformed, or not signed by Apple) from `network`. The route takes
    /// a token only for a refused body and refuses at once while the bucket is empty, so forged floods are limited
    /// before any verification and Apple's genuine notifications never spend the bucket.
    static func unverifiedNotification(from network: ClientNetwork, limits: ServerLimits) -> RateCharge {
        let rate = RateLimiter.Rate(perSecond: limits.unverifiedNotificationsPerSecond,
                                    burst: Double(limits.unverifiedNotificationBurst))
        return RateCharge(buckets: [(.unverifiedNotifications(network: network.description), rate)],
                          scope: "notifications from this address that failed verification")
    }

    /// A request with a configured key. A secret or dashboard key has one bucket. A public key (shipped in every
    /// install) is counted three times: for the customer (by id and client network, or by id alone when the
    /// request proved the customer's token, `customerVerified`), for the client network's share of the key, and
    /// for the key's ceiling. So one network cannot empty the ceiling, and a stranger cannot empty a customer's
    /// bucket from elsewhere.
    static func key(_ entry: APIKeyEntry, appUserId: String, from network: ClientNetwork, customerVerified: Bool,
                    limits: ServerLimits) -> RateCharge {
        let rate = RateLimiter.Rate(perSecond: limits.requestsPerSecond, burst: Double(limits.burst))
        switch entry.role {
        case .secret, .dashboard:
            return RateCharge(buckets: [(.key(sha256: entry.sha256), rate)], scope: "this key")
        case .public:
            let customer: RateLimiter.Bucket = customerVerified
                ? .verifiedCustomer(sha256: entry.sha256, appUserId: UTF8Key(appUserId))
                : .customer(sha256: entry.sha256, appUserId: UTF8Key(appUserId), network: network.description)
            let share = RateLimiter.Rate(perSecond: limits.publicKeyPerAddressRequestsPerSecond,
                                         burst: Double(limits.publicKeyPerAddressBurst))
            let ceiling = RateLimiter.Rate(perSecond: limits.publicKeyRequestsPerSecond,
                                           burst: Double(limits.publicKeyBurst))
            return RateCharge(
                buckets: [(customer, rate), (.publicKeyNetwork(sha256: entry.sha256, network: network.description), share),
                          (.key(sha256: entry.sha256), ceiling)],
                scope: "this public key for this customer, for this address, or over all addresses")
        }
    }
}
