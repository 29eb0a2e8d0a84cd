import Foundation
import TallyCore
import Testing
@testable import TallyServer

@Suite("The customer state cache")
struct CacheTests {
    @Test("a read is served from the cache while fresh: it answers even with the store switched off", arguments: StoreKind.tested)
    func servedFromCache(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        _ = try fixture.post(Purchases.premium("5001", at: ServerFixture.start.addingTimeInterval(-60)), for: "c")
        #expect(fixture.send("GET", "/v1/customers/c").features == ["no-ads", "premium"])
        fixture.store.setFailing(true)
        let cached = fixture.send("GET", "/v1/customers/c")
        #expect(cached.status == 200)
        #expect(cached.features == ["no-ads", "premium"])
        fixture.clock.advance(by: EntitlementAPI.maximumCacheAge + 1)
        #expect(fixture.send("GET", "/v1/customers/c").status == 503)
    }

    @Test("a write invalidates the entry before it answers: the next read sees it", arguments: StoreKind.tested)
    func writeInvalidates(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let bought = ServerFixture.start.addingTimeInterval(-600)
        _ = try fixture.post(Purchases.premium("5002", at: bought), for: "w")
        #expect(fixture.send("GET", "/v1/customers/w").features == ["no-ads", "premium"])
        _ = try fixture.post(Purchases.premium("5002", at: bought, revoked: ServerFixture.start.addingTimeInterval(-60)),
                             for: "w")
        #expect(fixture.send("GET", "/v1/customers/w").features.isEmpty)
        _ = try fixture.post(Purchases.coins("5003", at: bought), for: "w")
        #expect(fixture.send("GET", "/v1/customers/w").balance("coins") == "10")
        _ = fixture.send("POST", "/v1/customers/w/currencies/coins/spend", body: #"{"amount":3,"id":"w1"}"#)
        #expect(fixture.send("GET", "/v1/customers/w").balance("coins") == "7")
    }

    @Test("an entry expires at the subscription's expiresDate, even with no write", arguments: StoreKind.tested)
    func expiresAtExpiresDate(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let expires = ServerFixture.start.addingTimeInterval(120)
        let monthly = Purchases.monthly("5010", original: "5010", at: ServerFixture.start.addingTimeInterval(-86_400),
                                        expires: expires)
        #expect(try fixture.post(monthly, for: "sub").features.contains("pro"))
        let readsBefore = fixture.store.reads
        fixture.clock.set(expires.addingTimeInterval(-1))
        let before = fixture.send("GET", "/v1/customers/sub")
        #expect(before.features.contains("pro"))
        #expect(fixture.store.reads == readsBefore)
        fixture.clock.set(expires.addingTimeInterval(0.001))
        let after = fixture.send("GET", "/v1/customers/sub")
        #expect(!after.features.contains("pro"))
        #expect(fixture.store.reads == readsBefore + 1)
        let subscription = try #require((after.customer["subscriptions"] as? [[String: Any]])?.first)
        #expect(subscription["status"] as? String == "expired")
    }

    @Test("a reader that fetched before an invalidation cannot put its older state back")
    func staleInsertRefused() {
        let cache = StateCache()
        let now = Date()
        let ticket = cache.ticket()
        cache.invalidate("k")
        cache.insert(.init(version: 1, expires: now.addingTimeInterval(60), body: [1]), for: "k", ticket: ticket)
        #expect(cache.lookup("k", now: now) == nil)
        let fresh = cache.ticket()
        cache.insert(.init(version: 2, expires: now.addingTimeInterval(60), body: [2]), for: "k", ticket: fresh)
        #expect(cache.lookup("k", now: now)?.body == [2])
        cache.insert(.init(version: 1, expires: now.addingTimeInterval(60), body: [1]), for: "k", ticket: fresh)
        #expect(cache.lookup("k", now: now)?.body == [2])
        #expect(cache.lookup("k", now: now.addingTimeInterval(60)) == nil)
    }

    @Test("a full cache starts over without letting stale readers back in")
    func capacity() {
        let cache = StateCache(capacity: 2)
        let now = Date()
        let old = cache.ticket()
        for key in ["a", "b"] {
            cache.insert(.init(version: 1, expires: now.addingTimeInterval(60), body: [1]), for: key, ticket: old)
        }
        cache.insert(.init(version: 1, expires: now.addingTimeInterval(60), body: [1]), for: "c", ticket: old)
        #expect(cache.lookup("a", now: now) == nil)
        #expect(cache.lookup("c", now: now) == nil)
        cache.insert(.init(version: 1, expires: now.addingTimeInterval(60), body: [3]), for: "c", ticket: cache.ticket())
        #expect(cache.lookup("c", now: now)?.body == [3])
    }

    @Test("the cache is bounded by bytes: keys and bodies past the bound start it over, and one larger than the bound is not kept")
    func boundedByBytes() {
        let cache = StateCache(capacity: 1_000, maximumBytes: 10_000)
        let now = Date()
        let body = [UInt8](repeating: 7, count: 900)
        for index in 0..<100 {
            let key = String(repeating: "x", count: 90) + "\(index)"
            cache.insert(.init(version: 1, expires: now.addingTimeInterval(60), body: body), for: key, ticket: cache.ticket())
            #expect(cache.usage.bytes <= 10_000, "after \(index + 1) inserts: \(cache.usage)")
        }
        #expect(cache.usage.entries > 0 && cache.usage.entries <= 10, "\(cache.usage)")
        // Replacing an entry counts its new size, not both.
        cache.invalidate("y")
        let before = cache.usage
        cache.insert(.init(version: 2, expires: now.addingTimeInterval(60), body: [1, 2]), for: "y", ticket: cache.ticket())
        #expect(cache.usage.bytes == before.bytes + 2)
        let huge = [UInt8](repeating: 1, count: 20_000)
        cache.insert(.init(version: 1, expires: now.addingTimeInterval(60), body: huge), for: "big", ticket: cache.ticket())
        #expect(cache.lookup("big", now: now) == nil)
        #expect(cache.usage.bytes <= 10_000)
    }

    @Test("writes to one key that race keep the newest state and never let an older one back in")
    func racingWritesKeepTheNewest() {
        let cache = StateCache()
        let now = Date()
        let later = now.addingTimeInterval(60)
        let ticket = cache.ticket()
        // Three writes began together; they finish out of order.
        cache.replaceAfterWrite(.init(version: 6, expires: later, body: [6]), for: "k", ticket: ticket, now: now)
        cache.replaceAfterWrite(.init(version: 5, expires: later, body: [5]), for: "k", ticket: ticket, now: now)
        #expect(cache.lookup("k", now: now)?.body == [6], "the newer write's state stays")
        cache.replaceAfterWrite(.init(version: 7, expires: later, body: [7]), for: "k", ticket: ticket, now: now)
        #expect(cache.lookup("k", now: now)?.body == [7])
        cache.insert(.init(version: 6, expires: later, body: [6]), for: "k", ticket: cache.ticket())
        #expect(cache.lookup("k", now: now)?.body == [7], "a reader's older state never replaces a newer one")

        // An invalidation whose version is unknown: a write whose ticket is older cannot prove it is newer.
        cache.invalidate("k")
        cache.replaceAfterWrite(.init(version: 8, expires: later, body: [8]), for: "k", ticket: ticket, now: now)
        cache.replaceAfterWrite(.init(version: 9, expires: later, body: [9]), for: "k", ticket: ticket, now: now)
        #expect(cache.lookup("k", now: now) == nil)
        cache.replaceAfterWrite(.init(version: 10, expires: later, body: [10]), for: "k", ticket: cache.ticket(), now: now)
        #expect(cache.lookup("k", now: now)?.body == [10], "a write that began after the invalidation goes in")

        // A write whose state is already expired invalidates, knowing its version: a reader from before it is
        // refused, a newer write is not, whatever their tickets.
        cache.replaceAfterWrite(.init(version: 11, expires: now, body: [11]), for: "k", ticket: cache.ticket(), now: now)
        #expect(cache.lookup("k", now: now) == nil)
        cache.insert(.init(version: 10, expires: later, body: [10]), for: "k", ticket: ticket)
        #expect(cache.lookup("k", now: now) == nil, "a reader that read before version 11 committed")
        cache.replaceAfterWrite(.init(version: 12, expires: later, body: [12]), for: "k", ticket: ticket, now: now)
        #expect(cache.lookup("k", now: now)?.body == [12], "a newer write goes in")
    }
}
