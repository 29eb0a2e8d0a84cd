import Foundation
import Testing
import TallyCore
@testable import TallySandbox

@Suite("Sandbox upgrades, downgrades and crossgrades")
struct SubscriptionChangeTests {
    @Test("an upgrade is immediate: new transaction, old one marked upgraded, a new period from now")
    func upgrade() throws {
        var sandbox = Market.sandbox()
        let pro = try sandbox.purchase(Market.proMonthly).requireTransaction()
        sandbox.advance(by: try SandboxDuration(parsing: "10d"))
        let plus = try sandbox.purchase(Market.plusMonthly).requireTransaction()
        let upgradedAt = Market.date(Market.start, plus: 10, .day)
        #expect(plus.productId == Market.plusMonthly)
        #expect(plus.purchaseDate == upgradedAt)
        #expect(plus.expiresDate == Market.date(upgradedAt, plus: 1, .month))
        #expect(plus.originalTransactionId == pro.transactionId)
        #expect(plus.transactionReason == .purchase)
        let history = sandbox.transactions()
        #expect(history.count == 2)
        #expect(history.first?.isUpgraded == true)
        #expect(history.last?.isUpgraded == nil)
        let info = try #require(sandbox.renewalInfos().first)
        #expect(info.productId == Market.plusMonthly)
        #expect(info.autoRenewProductId == Market.plusMonthly)
        #expect(sandbox.events.last?.kind == .upgraded)
        #expect(sandbox.events.last?.detail == "UPGRADE")
    }

    @Test("a downgrade waits for the renewal, which is for the new product")
    func downgrade() throws {
        var sandbox = Market.sandbox()
        let pro = try sandbox.purchase(Market.proMonthly).requireTransaction()
        let result = try sandbox.purchase(Market.basicMonthly).requireTransaction()
        #expect(result == pro)
        #expect(sandbox.transactions().count == 1)
        var info = try #require(sandbox.renewalInfos().first)
        #expect(info.productId == Market.proMonthly)
        #expect(info.autoRenewProductId == Market.basicMonthly)
        #expect(info.renewalPrice == 4990)
        #expect(sandbox.events.last?.detail == "DOWNGRADE")

        sandbox.advance(by: try SandboxDuration(parsing: "1M"))
        let renewal = try #require(sandbox.transactions().last)
        #expect(renewal.productId == Market.basicMonthly)
        #expect(renewal.originalTransactionId == pro.transactionId)
        #expect(renewal.purchaseDate == pro.expiresDate)
        #expect(renewal.price == 4990)
        info = try #require(sandbox.renewalInfos().first)
        #expect(info.productId == Market.basicMonthly)
    }

    @Test("buying the current product again cancels a pending downgrade and charges nothing")
    func cancelDowngrade() throws {
        var sandbox = Market.sandbox()
        let pro = try sandbox.purchase(Market.proMonthly).requireTransaction()
        _ = sandbox.purchase(Market.basicMonthly)
        let again = try sandbox.purchase(Market.proMonthly).requireTransaction()
        #expect(again == pro)
        #expect(sandbox.renewalInfos().first?.autoRenewProductId == Market.proMonthly)
        sandbox.advance(by: try SandboxDuration(parsing: "1M"))
        #expect(sandbox.transactions().last?.productId == Market.proMonthly)
    }

    @Test("a crossgrade to another period applies at renewal")
    func crossgradeAtRenewal() throws {
        var sandbox = Market.sandbox()
        _ = try sandbox.purchase(Market.proMonthly).requireTransaction()
        _ = sandbox.purchase(Market.proYearly)
        #expect(sandbox.transactions().count == 1)
        #expect(sandbox.events.last?.detail == "CROSSGRADE")
        sandbox.advance(by: try SandboxDuration(parsing: "1M"))
        let renewal = try #require(sandbox.transactions().last)
        #expect(renewal.productId == Market.proYearly)
        #expect(renewal.expiresDate == Market.date(renewal.purchaseDate, plus: 1, .year))
    }
}
