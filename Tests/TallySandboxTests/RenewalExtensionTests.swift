import Foundation
import TallyCore
import Testing
@testable import TallySandbox

/// Renewal-date extensions as Apple allows them: paid active periods only, two per 365 days, a resent request
/// extending once; the renewal then comes at the extended date.
@Suite struct RenewalExtensionTests {
    private func original(_ sandbox: Sandbox, _ product: String) throws -> String {
        try #require(sandbox.transactions().last { $0.productId == product }?.originalTransactionId)
    }

    @Test func aFreeTrialOrAnExpiredSubscriptionIsIneligible() throws {
        var sandbox = Market.sandbox()
        _ = try sandbox.purchase(Market.trialMonthly).requireTransaction()
        let trial = try original(sandbox, Market.trialMonthly)
        do {
            _ = try sandbox.extendRenewalDate(originalTransactionId: trial, days: 3, reasonCode: 0, requestIdentifier: "a")
            Issue.record("a free trial was extended")
        } catch {
            #expect(error.code == .extensionIneligible)
        }
        try sandbox.setAutoRenew(productId: Market.trialMonthly, enabled: false)
        sandbox.advance(by: try SandboxDuration(parsing: "2M"))
        do {
            _ = try sandbox.extendRenewalDate(originalTransactionId: trial, days: 3, reasonCode: 0, requestIdentifier: "b")
            Issue.record("an expired subscription was extended")
        } catch {
            #expect(error.code == .extensionIneligible)
        }
    }

    @Test func twoExtensionsAYearThenTheRenewalComesLater() throws {
        var sandbox = Market.sandbox()
        _ = try sandbox.purchase(Market.proMonthly).requireTransaction()
        let id = try original(sandbox, Market.proMonthly)
        let expires = try #require(sandbox.transactions().last?.expiresDate)
        let first = try sandbox.extendRenewalDate(originalTransactionId: id, days: 5, reasonCode: 1, requestIdentifier: "r1")
        #expect(first.effectiveDate == expires.addingTimeInterval(5 * 86_400))
        let again = try sandbox.extendRenewalDate(originalTransactionId: id, days: 5, reasonCode: 1, requestIdentifier: "r1")
        #expect(again == first && sandbox.transactions().last?.expiresDate == first.effectiveDate, "resent: once")
        _ = try sandbox.extendRenewalDate(originalTransactionId: id, days: 1, reasonCode: 1, requestIdentifier: "r2")
        do {
            _ = try sandbox.extendRenewalDate(originalTransactionId: id, days: 1, reasonCode: 1, requestIdentifier: "r3")
            Issue.record("a third extension within 365 days")
        } catch {
            #expect(error.code == .extensionLimitReached)
        }
        #expect(sandbox.renewalInfos().first?.renewalDate == expires.addingTimeInterval(6 * 86_400))
        sandbox.advance(by: try SandboxDuration(parsing: "1M"))  // the old renewal date
        #expect(sandbox.transactions().count == 1, "not renewed at the old date")
        sandbox.advance(by: try SandboxDuration(parsing: "40d"))
        #expect(sandbox.transactions().dropFirst().first?.purchaseDate == expires.addingTimeInterval(6 * 86_400))
        #expect(sandbox.events.filter { $0.kind == .renewalExtended }.count == 2)
    }
}
