import Foundation
import Testing
@testable import Tally
import TallyTesting
import TallyCore

/// A renewal info grants nothing (no billing retry, no grace) unless the backend's verifier verifies its signed form.
@Suite("Store: only signed renewal infos count", .timeLimit(.minutes(1)))
struct StoreRenewalForgeryTests {
    /// A pro subscription bought, auto-renew turned off and left to expire; the store closed.
    private func expiredSubscription() async throws -> (Harness, StoreTransaction) {
        let harness = Harness()
        let store = try await harness.launch()
        let bought = try #require(try await store.purchase(Shop.proMonthly).transaction)
        _ = await harness.backend.turnOffAutoRenew(bought.originalTransactionId)
        harness.clock.advance(days: 40)
        #expect(try await store.refreshSubscriptionStatus().subscriptions.first?.status == .expired)
        #expect(await !store.isEntitled("pro"))
        await store.close()
        return (harness, bought)
    }

    private static func billingRetry(_ info: RenewalInfo) -> RenewalInfo {
        var forged = info
        forged.isInBillingRetryPeriod = true
        forged.gracePeriodExpiresDate = Date(timeIntervalSince1970: 4_102_444_800)
        forged.autoRenewStatus = .on
        return forged
    }

    @Test("a forged billing-retry line keeps no expired subscription, even while the store cannot be asked",
          arguments: [true, false])
    func forgedLineOffline(keepSignedForm: Bool) async throws {
        let (harness, bought) = try await expiredSubscription()
        let info = try #require(await harness.backend.renewalInfo(of: bought.originalTransactionId))
        let jws = harness.backend.signatures.sign(info)
        let journal = harness.directory.appendingPathComponent(CustomerFile.journalName).path
        try CustomerFileForgeryTests.append(.renewalInfo(Self.billingRetry(info),
                                                         jwsRepresentation: keepSignedForm ? jws : nil), to: journal)

        await harness.backend.failStatus(times: 1)
        let relaunched = try await harness.launch()
        await #expect(throws: StoreError.self) { try await relaunched.refreshSubscriptionStatus() }
        #expect(await !relaunched.isEntitled("pro"))
        #expect(await relaunched.state.subscriptions.first?.status == .expired)
        let diagnostics = await relaunched.diagnostics
        #expect(diagnostics.map(\.kind) == [.unverifiedRenewalInfo], "\(diagnostics)")
        #expect(diagnostics.first?.message.contains("renewal info of chain \(bought.originalTransactionId)") == true)
        #expect(await harness.backend.restoreCount == 0, "a renewal info asks for no restore")
    }

    @Test("a renewal info the backend reports with a signed form that does not verify is ignored and reported")
    func forgedStatus() async throws {
        let (harness, bought) = try await expiredSubscription()
        let info = try #require(await harness.backend.renewalInfo(of: bought.originalTransactionId))
        let forged = Self.billingRetry(info)
        await harness.backend.answerStatusAsIs(SignedRenewalInfo(renewalInfo: forged, jwsRepresentation: "not-signed"))
        let store = try await harness.launch()
        let state = try await store.refreshSubscriptionStatus()
        #expect(state.subscriptions.first?.status == .expired)
        #expect(!state.isEntitled("pro"))
        let messages = await store.diagnostics.filter { $0.kind == .unverifiedRenewalInfo }.map(\.message)
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.first?.contains("subscription status: the renewal info of chain \(bought.originalTransactionId) "
            + "has a signed form that does not verify") == true, "\(messages)")
        #expect(await store.history.renewalInfos == [info], "the store's signed renewal info is kept")
    }

    @Test("a delivered update's renewal info carrying another chain's signed form: the transaction counts, the info not")
    func transplantedRenewalInfo() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let bought = try #require(try await store.purchase(Shop.proMonthly).transaction)
        var other = try #require(await harness.backend.renewalInfo(of: bought.originalTransactionId))
        other.originalTransactionId = "elsewhere"
        let otherJWS = harness.backend.signatures.sign(other)
        let forged = Self.billingRetry(try #require(await harness.backend.renewalInfo(of: bought.originalTransactionId)))
        var update = harness.backend.signedUpdate(bought)
        update.renewalInfo = SignedRenewalInfo(renewalInfo: forged, jwsRepresentation: otherJWS)
        await harness.backend.sendAsIs(update)
        harness.clock.advance(days: 40)
        // The listener delivers it (nothing new to announce); wait for its report, 10 s at most.
        for _ in 0..<1000 where await store.diagnostics.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        let message = try #require(await store.diagnostics.first { $0.kind == .unverifiedRenewalInfo }?.message)
        #expect(message.contains("came with the signed form of chain elsewhere's"), "\(message)")
        #expect(await store.history.renewalInfos.allSatisfy { $0.isInBillingRetryPeriod != true })
        #expect(await !store.isEntitled("pro"))
    }

    @Test("a format 2 file's unsigned renewal info is dropped at launch; the next subscription status brings it signed")
    func legacyRenewalInfoComesBackSigned() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let bought = try #require(try await store.purchase(Shop.proMonthly).transaction)
        await store.close()
        // The file as format 2 wrote it: renewal infos bare, without signed forms.
        let relaunchedOnce = try await harness.launch()
        await relaunchedOnce.close()  // folds the journal into customer.json
        let snapshot = harness.directory.appendingPathComponent(CustomerFile.snapshotName)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: snapshot)) as? [String: Any])
        let infos = try #require(json["renewalInfos"] as? [String: [String: Any]])
        json["formatVersion"] = 2
        json["renewalInfos"] = infos.mapValues { $0["renewalInfo"] ?? $0 }
        try JSONSerialization.data(withJSONObject: json).write(to: snapshot)

        let relaunched = try await harness.launch()
        #expect(await relaunched.diagnostics.map(\.kind) == [.unverifiedRenewalInfo])
        #expect(await relaunched.history.renewalInfos.isEmpty)
        #expect(await harness.backend.restoreCount == 0)
        _ = try await relaunched.refreshSubscriptionStatus()
        #expect(await relaunched.history.renewalInfos.map(\.originalTransactionId) == [bought.originalTransactionId])
        await relaunched.close()
        #expect(try await harness.launch().diagnostics.isEmpty)
    }
}
