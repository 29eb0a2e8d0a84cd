import Foundation
import Testing
@testable import Tally
import TallyCore

/// A renewal info line added to the market's customer journal by hand (billing retry with a grace period in 2099,
/// its CRC-32 recomputed, as anyone can) keeps no expired subscription alive: `tally market status` ignores and
/// reports the line.
@Suite("tally market: a forged renewal info line")
struct MarketRenewalForgeryTests {
    /// Appends a copy of the journal's last renewal info line, changed by `edit`, keeping its signed form (the
    /// attacker cannot sign) or dropping it (`keepSignedForm` false). Returns the new line's number.
    static func forge(_ journal: URL, keepSignedForm: Bool, _ edit: (inout RenewalInfo) -> Void) throws -> Int {
        let data = try Data(contentsOf: journal)
        let lines = data.split(separator: 0x0A)
        var found: (RenewalInfo, String?)?
        for line in lines {
            if case .renewalInfo(let info, let jws)? = JournalLine.decode(line[...], with: JSONDecoder()) {
                found = (info, jws)
            }
        }
        var (info, jws) = try #require(found, "no renewal info line in \(journal.path)")
        #expect(jws != nil, "the market writes each renewal info with its signed form")
        edit(&info)
        var forged = data
        forged.append(try JournalLine.encode(.renewalInfo(info, jwsRepresentation: keepSignedForm ? jws : nil),
                                             with: JSONEncoder()))
        try forged.write(to: journal)
        return lines.count + 1
    }

    static func billingRetryUntil2099(_ info: inout RenewalInfo) {
        info.isInBillingRetryPeriod = true
        info.gracePeriodExpiresDate = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
        info.autoRenewStatus = .on
        info.expirationIntent = nil
    }

    @Test(arguments: [true, false])
    func aForgedBillingRetryKeepsNoExpiredSubscription(keepSignedForm: Bool) throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.pro.monthly").status == 0)
        #expect(try store.run("auto-renew", "market.pro.monthly", "off").status == 0)
        #expect(try store.run("advance", "2M").status == 0)
        let expired = try store.market("status")
        #expect(expired.stdout.contains("Features: none"), "\(expired.stdout)")
        #expect(expired.stdout.contains("Subscription market.pro.monthly: expired"), "\(expired.stdout)")

        let journal = store.directory.appendingPathComponent("apps/default/default/customer.journal")
        let line = try Self.forge(journal, keepSignedForm: keepSignedForm, Self.billingRetryUntil2099)
        let status = try store.market("status")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("Features: none"), "\(status.stdout)")
        #expect(!status.stdout.contains("inGracePeriod") && !status.stdout.contains("inBillingRetry"))
        #expect(status.stderr.contains("warning: unverifiedRenewalInfo"), "\(status.stderr)")
        let reason = keepSignedForm ? "differs from its signed form" : "has no signed form"
        #expect(status.stderr.contains("line \(line) (renewal info of chain 2000000000000001, market.pro.monthly) "
            + reason), "\(status.stderr)")
        let copies = try FileManager.default.contentsOfDirectory(atPath: journal.deletingLastPathComponent().path)
        #expect(copies.contains { $0.hasPrefix("customer.journal.unverified-") })

        let json = try store.marketStatus()
        #expect(Features.of(json)?.contains("pro") != true, "\(json)")
        let subscription = try #require((json["subscriptions"] as? [[String: Any]])?.first)
        #expect(subscription["status"] as? String == "expired")
        let again = try store.market("status")
        #expect(!again.stderr.contains("unverifiedRenewalInfo"), "reported once; the forged line is gone")
    }
}
