import Dispatch
import Foundation
import Synchronization
import TallyCore
import Testing
@testable import TallyServer

@Suite("POST /v1/notifications/apple: concurrent delivery")
struct NotificationConcurrencyTests {
    @Test("notifications delivered at once from many threads, each twice, are each applied exactly once", arguments: StoreKind.tested)
    func concurrentDeliveries(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let start = ServerFixture.start, count = 40
        var payloads: [String] = []
        for index in 0..<count {
            let chain = "9\(index)"
            let first = Purchases.monthly(chain, original: chain, at: start - 20 * ServerFixture.day,
                                          expires: start + 10 * ServerFixture.day)
            #expect(try fixture.post(first, for: "c\(index)").status == 200)
            payloads.append(try fixture.signedNotification(
                .didChangeRenewalStatus, .autoRenewEnabled, uuid: "n-\(index)", signed: start - 60,
                renewal: Renewals.make(chain, signed: start - 60)))
        }
        let results = Mutex<[String: Int]>([:])
        let jobs = payloads + payloads
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let reply = fixture.postNotification(jobs[index])
            let name = reply.status == 200 ? (reply.result ?? "none") : "status \(reply.status)"
            results.withLock { $0[name, default: 0] += 1 }
        }
        #expect(results.withLock { $0 } == ["applied": count, "duplicate": count])
        for index in 0..<count {
            #expect(fixture.customer("c\(index)").subscription["willRenew"] as? Bool == true)
            #expect(fixture.historyItems("c\(index)", kind: "notification").count == 1)
        }
    }
}
