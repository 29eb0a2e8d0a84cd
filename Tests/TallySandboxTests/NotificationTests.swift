import Foundation
import TallyCore
import Testing
@testable import TallySandbox

/// Every lifecycle event of the sandbox produces the App Store Server Notification V2 Apple sends for it, and
/// Apple's own `SignedDataVerifier.verify_and_decode_notification`, trusting only the sandbox's root, accepts
/// each one (and its nested signed transaction and renewal info).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CI"] == "true"
                || ProcessInfo.processInfo.environment["TALLY_SKIP_APPLE_LIBRARY"] != "1",
                "TALLY_SKIP_APPLE_LIBRARY=1 (ignored under CI=true)"))
struct NotificationTests {
    typealias Support = SigningTestSupport

    /// Runs a scenario step by step, building the notification of every new event right after it happened.
    struct Recorder {
        var sandbox = Market.sandbox()
        let builder: SandboxNotificationBuilder
        var seen = 0
        var built: [(event: SandboxEvent, notification: SandboxNotificationBuilder.Built)] = []

        mutating func step(_ body: (inout Sandbox) throws -> Void) throws {
            try body(&sandbox)
            for event in sandbox.events.dropFirst(seen) {
                let (transaction, renewalInfo) = sandbox.notificationSubject(for: event)
                if let notification = try builder.notification(for: event, transaction: transaction,
                                                               renewalInfo: renewalInfo,
                                                               summary: sandbox.notificationSummary(for: event)) {
                    built.append((event, notification))
                }
            }
            seen = sandbox.events.count
        }

        var kinds: [String] {
            built.map { [$0.notification.notification.notificationType?.rawValue, $0.notification.notification.subtype?.rawValue]
                .compactMap { $0 }.joined(separator: "/") }
        }
    }

    static func month() throws -> SandboxDuration { try SandboxDuration(parsing: "1M") }

    @Test func everyLifecycleEventSendsItsNotificationAndAppleVerifiesEach() throws {
        let now = Market.start
        let authority = try SandboxCertificateAuthority.generate(now: now)
        let builder = SandboxNotificationBuilder(signer: try authority.signer(), bundleId: Market.configuration.bundleId,
                                                 appAppleId: nil, environment: .sandbox)
        var recorder = Recorder(builder: builder)
        try recorder.step { _ = try $0.purchase(Market.removeAds).requireTransaction() }
        try recorder.step { _ = try $0.purchase(Market.coins).requireTransaction() }
        try recorder.step { _ = try $0.purchase(Market.proMonthly).requireTransaction() }
        try recorder.step { $0.advance(by: try Self.month()) }
        try recorder.step { _ = $0.purchase(Market.plusMonthly) }                 // upgrade
        try recorder.step { _ = $0.purchase(Market.basicMonthly) }                // downgrade at renewal
        try recorder.step { _ = $0.purchase(Market.plusMonthly) }                 // back: the downgrade is off
        try recorder.step { try $0.setAutoRenew(productId: Market.plusMonthly, enabled: false) }
        try recorder.step { try $0.setAutoRenew(productId: Market.plusMonthly, enabled: true) }
        try recorder.step { try $0.set(.billingIssue, enabled: true) }
        try recorder.step { $0.advance(by: try Self.month()) }                     // fails, billing retry
        try recorder.step { try $0.set(.billingIssue, enabled: false) }           // recovers
        try recorder.step { try $0.set(.gracePeriod, enabled: true); try $0.set(.billingIssue, enabled: true) }
        try recorder.step { $0.advance(by: try Self.month()) }                     // fails, in grace
        try recorder.step { $0.advance(by: try Self.month()) }                     // grace ends; retry goes on
        try recorder.step { $0.advance(by: try Self.month()) }
        try recorder.step { $0.advance(by: try Self.month()) }                     // retry ends: expired
        try recorder.step { try $0.set(.billingIssue, enabled: false) }
        try recorder.step { _ = try $0.purchase(Market.proMonthly).requireTransaction() }   // resubscribe
        try recorder.step { try $0.setAutoRenew(productId: Market.proMonthly, enabled: false) }
        try recorder.step { $0.advance(by: try Self.month()) }                     // expires: voluntary
        try recorder.step { sandbox in
            let removeAds = try #require(sandbox.transactions().first { $0.productId == Market.removeAds })
            _ = try sandbox.refund(transactionId: removeAds.transactionId)
        }
        try recorder.step { sandbox in                                              // a coin refund asked, declined
            let coin = try #require(sandbox.transactions().first { $0.productId == Market.coins })
            _ = try sandbox.requestRefund(transactionId: coin.transactionId, reason: "UNSATISFIED_WITH_PURCHASE")
            _ = try sandbox.decideRefund(transactionId: coin.transactionId, decision: .decline)
            _ = try sandbox.requestRefund(transactionId: coin.transactionId)       // asked again, granted, reversed
            _ = try sandbox.decideRefund(transactionId: coin.transactionId, decision: .approve)
            _ = try sandbox.reverseRefund(transactionId: coin.transactionId)
        }
        try recorder.step { _ = try $0.purchase(Market.proMonthly).requireTransaction() }
        try recorder.step { try $0.setAutoRenew(productId: Market.proMonthly, enabled: true) }
        try recorder.step { $0.advance(by: try Self.month()) }                     // a paid period
        try recorder.step { sandbox in
            let original = try #require(sandbox.transactions().last { $0.productId == Market.proMonthly }?.originalTransactionId)
            _ = try sandbox.extendRenewalDate(originalTransactionId: original, days: 3, reasonCode: 1,
                                              requestIdentifier: "single")
            _ = sandbox.massExtendRenewalDate(productId: Market.proMonthly, days: 2, reasonCode: 3,
                                              requestIdentifier: UUID().uuidString, storefrontCountryCodes: nil)
            let failed = sandbox.massExtendRenewalDate(productId: Market.proMonthly, days: 2, reasonCode: 3,
                                                       requestIdentifier: UUID().uuidString, storefrontCountryCodes: nil)
            #expect(failed.failedCount == 1 && failed.succeededCount == 0, "a third extension within a year fails")
        }

        let kinds = Set(recorder.kinds)
        let expected: Set<String> = [
            "ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "SUBSCRIBED/RESUBSCRIBE", "DID_RENEW",
            "DID_RENEW/BILLING_RECOVERY", "DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE",
            "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED",
            "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED", "DID_FAIL_TO_RENEW", "DID_FAIL_TO_RENEW/GRACE_PERIOD",
            "GRACE_PERIOD_EXPIRED", "EXPIRED/BILLING_RETRY", "EXPIRED/VOLUNTARY", "REFUND",
            "CONSUMPTION_REQUEST", "REFUND_DECLINED", "REFUND_REVERSED", "RENEWAL_EXTENDED",
            "RENEWAL_EXTENSION/FAILURE", "RENEWAL_EXTENSION/SUMMARY",
        ]
        #expect(expected.subtracting(kinds).isEmpty, "missing: \(expected.subtracting(kinds).sorted()); got \(recorder.kinds)")

        // Each payload as the App Store sends it, and Apple's verifier over every one.
        let uuids = recorder.built.compactMap { $0.notification.notification.notificationUUID }
        #expect(Set(uuids).count == recorder.built.count, "every notification has its own notificationUUID")
        for (event, built) in recorder.built {
            let notification = built.notification
            #expect(notification.version == "2.0" && notification.signedDate == event.date)
            if event.kind == .renewalExtensionSummary {
                #expect(notification.data == nil && notification.summary?.productId == Market.proMonthly)
                #expect(notification.summary?.bundleId == Market.configuration.bundleId)
                #expect(notification.summary?.requestIdentifier == event.detail)
                continue
            }
            #expect((notification.data?.consumptionRequestReason != nil) == (event.kind == .refundRequested))
            #expect(notification.data?.bundleId == Market.configuration.bundleId)
            #expect(notification.data?.environment == .sandbox)
            #expect(notification.data?.signedTransactionInfo != nil, "\(event.kind) carries its transaction")
            let isSubscription = event.productId.map { [Market.proMonthly, Market.plusMonthly, Market.basicMonthly].contains($0) } ?? false
            #expect((notification.data?.signedRenewalInfo != nil) == isSubscription, "\(event.kind) \(event.productId ?? "")")
            #expect((notification.data?.status != nil) == isSubscription)
        }
        let answer = try appleVerifies(root: authority.rootDER, recorder.built.map { ("notification", $0.notification.signedPayload) })
        let results = try #require(answer["results"] as? [[String: Any]], "\(answer)")
        #expect(results.count == recorder.built.count)
        for (result, (event, built)) in zip(results, recorder.built) {
            #expect(result["ok"] as? Bool == true, "\(event.kind): \(result)")
            let payload = result["payload"] as? [String: Any]
            #expect(payload?["notificationType"] as? String == built.notification.notificationType?.rawValue)
            #expect(payload?["subtype"] as? String == built.notification.subtype?.rawValue)
            #expect(payload?["notificationUUID"] as? String == built.notification.notificationUUID)
        }
        let reasons = recorder.built.compactMap { $0.notification.notification.data?.consumptionRequestReason }
        #expect(reasons == ["UNSATISFIED_WITH_PURCHASE", "OTHER"])
        let summaries = recorder.built.compactMap { $0.notification.notification.summary }
        #expect(summaries.map { [$0.succeededCount, $0.failedCount] } == [[1, 0], [0, 1]])
        let statuses = recorder.built.compactMap { built -> String? in
            guard let status = built.notification.notification.data?.status else { return nil }
            return "\(built.notification.notification.notificationType?.rawValue ?? "")=\(status)"
        }
        #expect(statuses.contains("DID_FAIL_TO_RENEW=3") && statuses.contains("GRACE_PERIOD_EXPIRED=3")
                && statuses.contains("EXPIRED=2") && statuses.contains("DID_RENEW=1"), "\(statuses)")
    }

    @Test func aTestNotificationCarriesOnlyTheAppAndAppleVerifiesIt() throws {
        let authority = try SandboxCertificateAuthority.generate(now: Market.start)
        let builder = SandboxNotificationBuilder(signer: try authority.signer(), bundleId: Market.configuration.bundleId,
                                                 appAppleId: nil, environment: .sandbox)
        let test = try builder.testNotification(at: Market.start)
        #expect(test.notification.notificationType == .test && test.notification.data?.signedTransactionInfo == nil)
        let answer = try appleVerifies(root: authority.rootDER, [("notification", test.signedPayload)])
        let result = try #require((answer["results"] as? [[String: Any]])?.first, "\(answer)")
        #expect(result["ok"] as? Bool == true, "\(result)")
        #expect((result["payload"] as? [String: Any])?["notificationType"] as? String == "TEST")
    }

    /// Apple's verifier over `pairs`, trusting only `root`; fails (never skips) when the library is missing.
    private func appleVerifies(root: Data, _ pairs: [(String, String)]) throws -> [String: Any] {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let rootPath = dir.appendingPathComponent("root.der")
        try root.write(to: rootPath)
        let script = Support.folder.appendingPathComponent("verify_with_apple.py").path
        let out = try Support.run(["python3", script, rootPath.path, Market.configuration.bundleId]
            + pairs.flatMap { [$0.0, $0.1] })
        let object = try? JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
        try #require(out.status != 3 && object != nil,
                     "Apple's library could not be run (exit \(out.status)): \(out.stdout)\(out.stderr)")
        return object ?? [:]
    }
}
