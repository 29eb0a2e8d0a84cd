import Foundation
import Testing
import TallyCore
@testable import TallyServer

/// What the server tells Apple about a refund request (``ConsumptionInformation``).
@Suite struct ConsumptionInformationTests {
    private func information(_ stored: StoredTransaction, nets: [String: Decimal],
                             settings: ConsumptionSettings = ConsumptionSettings()) -> ConsumptionInformation? {
        ConsumptionInformation(transaction: stored.transaction,
                               record: CustomerRecord(appUserId: "c", nets: nets),
                               credits: StoreFixtures.credits, settings: settings)
    }

    @Test(arguments: [
        (Decimal(100), 0), (Decimal(40), 60_000), (Decimal(500), 0), (Decimal(0), 100_000), (Decimal(-10), 100_000),
        (Decimal(string: "33.333")!, 66_667),
    ])
    func theConsumedShareIsWhatTheBalanceNoLongerCovers(net: Decimal, milliunits: Int) {
        let sent = information(StoreFixtures.coins("t1"), nets: ["coins": net])
        #expect(sent?.consumptionPercentage == milliunits)
        #expect(sent?.deliveryStatus == "DELIVERED")
    }

    @Test func aCurrencyNamedWithOtherBytesIsNotTheBalance() {
        // "coins" with a Cyrillic о is another currency: its net says nothing about the purchase's coins.
        let sent = information(StoreFixtures.coins("t1"), nets: ["c\u{043E}ins": 100])
        #expect(sent?.consumptionPercentage == 100_000)
    }

    @Test func subscriptionsAndNonConsumablesCarryNoPercentage() {
        #expect(information(StoreFixtures.period("p1", original: "p1", month: 0), nets: [:])?.consumptionPercentage == nil)
        #expect(information(StoreFixtures.premium("n1"), nets: [:])?.consumptionPercentage == nil)
        let json = String(decoding: information(StoreFixtures.premium("n1"), nets: [:])?.json ?? [], as: UTF8.self)
        #expect(json == #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#)
    }

    @Test func aRefundedTransactionIsNotAnswered() {
        #expect(information(StoreFixtures.premium("n1", revokedAt: StoreFixtures.day(1)), nets: [:]) == nil)
    }

    @Test func proratedIsSentOnlyWithAShareStrictlyBetween() {
        let prorated = ConsumptionSettings(refundPreference: "GRANT_PRORATED")
        #expect(information(StoreFixtures.coins("t1"), nets: ["coins": 50], settings: prorated)?.refundPreference == "GRANT_PRORATED")
        #expect(information(StoreFixtures.coins("t1"), nets: ["coins": 100], settings: prorated)?.refundPreference == nil)
        #expect(information(StoreFixtures.coins("t1"), nets: ["coins": 0], settings: prorated)?.refundPreference == nil)
        let decline = ConsumptionSettings(refundPreference: "DECLINE")
        #expect(information(StoreFixtures.coins("t1"), nets: ["coins": 100], settings: decline)?.refundPreference == "DECLINE")
    }
}
