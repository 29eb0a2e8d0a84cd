import Foundation
import TallyLocking
import TallyCore

/// Token buckets: each holds up to `burst` tokens, refilled at `perSecond`; a request takes one token from
/// every bucket it is counted in (``RateCharge`` picks them), or from none.
///
/// Buckets that have refilled completely are the same as absent ones, so they are dropped whenever the
/// table has doubled since the last sweep: the table holds only buckets used within their refill time.
///
/// Buckets refill on a monotonic real clock (the system's uptime), never on the server's `ServerClock`: that one
/// may follow a sandbox (`clock.sandboxURL`) that stands still between `tally sandbox advance`s, and a bucket
/// refilled on it would stay empty for good.
final class RateLimiter: Sendable {
    /// What a bucket counts.
    enum Bucket: Sendable, Hashable {
        /// One key, by the SHA-256 its entry lists (a secret key, or a public key's ceiling).
        case key(sha256: [UInt8])
        /// One public key for one customer id (compared as bytes) from one client network: a stranger elsewhere
        /// cannot spend the share of a customer whose id he knows.
        case customer(sha256: [UInt8], appUserId: UTF8Key, network: String)
        /// One public key for one customer id whose customer token the request proved (any network).
        case verifiedCustomer(sha256: [UInt8], appUserId: UTF8Key)
        /// One public key from one client network: its share of the key's ceiling.
        case publicKeyNetwork(sha256: [UInt8], network: String)
        /// Requests from one client network with no key or an unknown key.
        case address(String)
        /// Refused notification bodies (forged, malformed) from one client network.
        case unverifiedNotifications(network: String)
    }

    /// A bucket's refill rate and size.
    struct Rate: Sendable, Hashable {
        var perSecond: Double
        var burst: Double
    }

    private struct State {
        var tokens: Double
        /// When the tokens were counted, in the limiter's monotonic seconds.
        var updated: TimeInterval
        var rate: Rate

        /// The tokens at `now`, refilled since the last update.
        func tokens(at now: TimeInterval) -> Double {
            min(rate.burst, tokens + max(0, now - updated) * rate.perSecond)
        }
    }

    private struct Table {
        var buckets: [Bucket: State] = [:]
        var sweepAt = RateLimiter.minimumSweepSize
    }

    /// The table size below which full buckets are not swept.
    static let minimumSweepSize = 1_024

    private let uptime: @Sendable () -> TimeInterval
    private let table = Locked(Table())

    /// A limiter refilling on `uptime` (monotonic seconds; the system's uptime by default, a test's own clock in
    /// tests).
    init(uptime: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }) {
        self.uptime = uptime
    }

    /// Takes a token from each bucket when every one has a token: nil when allowed, else the whole seconds
    /// to wait until all have one (and nothing is taken).
    func acquire(_ buckets: [(Bucket, Rate)]) -> Int? {
        let now = uptime()
        return table.withLock { table -> Int? in
            var states: [State] = []
            var wait = 0.0
            for (bucket, rate) in buckets {
                var state = table.buckets[bucket] ?? State(tokens: rate.burst, updated: now, rate: rate)
                state.tokens = state.tokens(at: now)
                state.updated = max(now, state.updated)
                state.rate = rate
                if state.tokens < 1 { wait = max(wait, (1 - state.tokens) / rate.perSecond) }
                states.append(state)
            }
            if wait > 0 { return max(1, Int(wait.rounded(.up))) }
            for ((bucket, _), var state) in zip(buckets, states) {
                state.tokens -= 1
                table.buckets[bucket] = state
            }
            if table.buckets.count >= table.sweepAt {
                table.buckets = table.buckets.filter { $0.value.tokens(at: now) < $0.value.rate.burst }
                table.sweepAt = max(Self.minimumSweepSize, table.buckets.count * 2)
            }
            return nil
        }
    }

    /// The whole seconds to wait until every bucket has a token, or nil when all have one now; takes nothing.
    func wait(_ buckets: [(Bucket, Rate)]) -> Int? {
        let now = uptime()
        return table.withLock { table -> Int? in
            var wait = 0.0
            for (bucket, rate) in buckets {
                let tokens = table.buckets[bucket]?.tokens(at: now) ?? rate.burst
                if tokens < 1 { wait = max(wait, (1 - tokens) / rate.perSecond) }
            }
            return wait > 0 ? max(1, Int(wait.rounded(.up))) : nil
        }
    }

    /// How many buckets are kept (for tests of the sweep).
    var count: Int { table.withLock { $0.buckets.count } }
}
