import Foundation
import TallyTesting
import TallyCore
import Testing
@testable import TallyServer

@Suite("rate-limit buckets, JSON element scan, readiness")
struct HardeningUnitTests {
    static let rate = RateLimiter.Rate(perSecond: 1, burst: 2)

    @Test("a request counted in two buckets takes from both or from neither")
    func bothOrNeither() {
        let clock = TestClock(Date(timeIntervalSince1970: 1_000_000))
        let limiter = RateLimiter(uptime: { clock.now.timeIntervalSince1970 })
        let ceiling = RateLimiter.Rate(perSecond: 1, burst: 3)
        let key = RateLimiter.Bucket.key(sha256: [1])
        func customer(_ id: String) -> RateLimiter.Bucket { .customer(sha256: [1], appUserId: UTF8Key(id), network: "192.0.2.1") }
        #expect(limiter.acquire([(customer("a"), Self.rate), (key, ceiling)]) == nil)
        #expect(limiter.acquire([(customer("a"), Self.rate), (key, ceiling)]) == nil)
        // a is empty: refused, and the ceiling keeps its last token for b.
        #expect(limiter.acquire([(customer("a"), Self.rate), (key, ceiling)]) == 1)
        #expect(limiter.acquire([(customer("b"), Self.rate), (key, ceiling)]) == nil)
        #expect(limiter.acquire([(customer("c"), Self.rate), (key, ceiling)]) == 1, "the ceiling is spent")
        clock.advance(by: 1)
        #expect(limiter.acquire([(customer("c"), Self.rate), (key, ceiling)]) == nil)
    }

    @Test("customer ids are bucketed by their bytes: NFC and NFD café, KELVIN SIGN and K are different")
    func bytesNotCanonicalEquivalence() {
        let limiter = RateLimiter(uptime: { 0 })
        #expect("caf\u{E9}" == "cafe\u{301}", "Swift String equality merges them")
        for pair in [("caf\u{E9}", "cafe\u{301}"), ("KATE", "\u{212A}ATE")] {
            for _ in 0..<2 { #expect(limiter.acquire([(.customer(sha256: [], appUserId: UTF8Key(pair.0), network: ""), Self.rate)]) == nil) }
            #expect(limiter.acquire([(.customer(sha256: [], appUserId: UTF8Key(pair.0), network: ""), Self.rate)]) != nil)
            #expect(limiter.acquire([(.customer(sha256: [], appUserId: UTF8Key(pair.1), network: ""), Self.rate)]) == nil,
                    "\(Array(pair.1.utf8)) has its own bucket")
        }
    }

    @Test("refilled buckets are swept, so invented customer ids do not grow the table without bound")
    func sweep() {
        let clock = TestClock(Date(timeIntervalSince1970: 0))
        let limiter = RateLimiter(uptime: { clock.now.timeIntervalSince1970 })
        for index in 0..<10_000 {
            _ = limiter.acquire([(.address("10.0.\(index / 256).\(index % 256)"), Self.rate)])
            clock.advance(by: 0.01)
        }
        // Buckets refill in 1 s (100 requests here): only those touched within it can be kept.
        #expect(limiter.count < 2 * RateLimiter.minimumSweepSize, "\(limiter.count) buckets kept")
    }

    @Test("the element scan counts values, not member names, and nothing inside strings")
    func elementScan() {
        func count(_ text: String) -> Int {
            let bytes = Array(text.utf8)
            return (0...64).first { !JSONElementScan.exceeds(bytes, limit: $0) } ?? -1
        }
        #expect(count("0") == 1)
        #expect(count("[]") == 1)
        #expect(count("[0,1,2]") == 4)
        #expect(count(#"{"a":1,"b":[true,false,null]}"#) == 6)
        #expect(count(#"{"a" : "x,y,[z]:\"q"}"#) == 2)
        #expect(count("[-1.5e+10, 2E-3]") == 3)
        #expect(count(#"{"amount":5,"id":"s"}"#) == 3)
    }

    @Test("a failed write stands for the interval, then a probe decides; one probe per interval")
    func readiness() throws {
        let readiness = Readiness(interval: 0.2)
        var probes = 0
        #expect(readiness.check { probes += 1; return nil } == nil)
        #expect(readiness.check { probes += 1; return nil } == nil)
        #expect(probes == 1, "the verdict is reused within the interval")
        readiness.noteWrite(failure: .init(message: "disk full"))
        #expect(readiness.check { probes += 1; return nil }?.message == "disk full")
        #expect(probes == 1, "a recent failed write needs no probe")
        Thread.sleep(forTimeInterval: 0.25)
        #expect(readiness.check { probes += 1; return .init(message: "still full") }?.message == "still full")
        #expect(probes == 2)
        readiness.noteWrite(failure: nil)
        #expect(readiness.check { probes += 1; return .init(message: "unused") } == nil,
                "a write that worked after the probe makes it ready")
        Thread.sleep(forTimeInterval: 0.25)
        #expect(readiness.check { probes += 1; return nil } == nil)
        #expect(probes == 3)
    }
}
