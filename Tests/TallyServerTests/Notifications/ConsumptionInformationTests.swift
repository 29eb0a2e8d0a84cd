import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

/// What the server tells Apple about a refund request (``ConsumptionInformation``).
@Suite struct ConsumptionInformationTests {
    private func information(_ stored: StoredTransaction, nets: [String: Decimal],
                             settings: ConsumptionSettings = ConsumptionSettings()) -> ConsumptionInformation? {
        ConsumptionInformation(transaction: stored.transaction,
                               record: CustomerRecord(appUserId: "c", nets: nets),
                               credits: StoreFixtures.credits, settings: settings, at: StoreFixtures.day(1))
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

    @Test(arguments: [(0.0, 1), (2.99, 1), (3.0, 2), (9.9, 2), (10.0, 3), (29.0, 3), (30.0, 4), (89.0, 4), (90.0, 5),
                      (179.0, 5), (180.0, 6), (364.0, 6), (365.0, 7), (4_000.0, 7), (-1.0, 0)])
    func accountTenureBands(days: Double, band: Int) {
        #expect(ConsumptionInformation.tenureBand(days: days) == band)
    }

    @Test(arguments: [("0", 1), ("0.01", 2), ("49.99", 2), ("50", 3), ("99.99", 3), ("100", 4), ("499.99", 4),
                      ("500", 5), ("999.99", 5), ("1000", 6), ("1999.99", 6), ("2000", 7), ("25000", 7)])
    func lifetimeDollarBands(dollars: String, band: Int) {
        #expect(ConsumptionInformation.dollarBand(Decimal(string: dollars)) == band)
        #expect(ConsumptionInformation.dollarBand(nil) == 0)
    }

    @Test func theV1BodyCarriesTenureAndLifetimeBandsFromTheRecord() throws {
        let start = StoreFixtures.start
        func bought(_ id: String, price: Int64?, currency: String? = "USD", revoked: Bool = false) -> StoredTransaction {
            StoreFixtures.signed(StoreTransaction(transactionId: id, productId: "app.coins.100", purchaseDate: start,
                                             type: .consumable, appAccountToken: "6f1c9e0e-0000-4000-8000-000000000001",
                                             signedDate: start, revocationDate: revoked ? start : nil,
                                             currency: currency, price: price))
        }
        let history = [bought("a", price: 59_990), bought("b", price: 4_990, revoked: true)]
        let record = CustomerRecord(appUserId: "c", transactions: history, nets: ["coins": 150])
        let sent = try #require(ConsumptionInformation(transaction: history[0].transaction, record: record,
                                                       credits: StoreFixtures.credits, settings: ConsumptionSettings(),
                                                       at: start.addingTimeInterval(45 * 86_400)))
        let body = try JSONSerialization.jsonObject(with: Data(sent.jsonV1)) as? [String: Any]
        #expect(body?["accountTenure"] as? Int == 4, "45 days: 30–90")
        #expect(body?["lifetimeDollarsPurchased"] as? Int == 3, "$64.98 in all: 50–99.99")
        #expect(body?["lifetimeDollarsRefunded"] as? Int == 2, "$4.99 refunded")
        #expect(body?["consumptionStatus"] as? Int == 1, "150 coins left cover its 100")
        #expect(body?["appAccountToken"] as? String == "6f1c9e0e-0000-4000-8000-000000000001")
        #expect(body?.count == 12, "every field V1 requires, and refundPreference")

        let mixed = CustomerRecord(appUserId: "c", transactions: history + [bought("e", price: 1_000, currency: "EUR")])
        let undeclared = ConsumptionInformation(transaction: history[0].transaction, record: mixed, credits: StoreFixtures.credits,
                                                settings: ConsumptionSettings(), at: start)
        #expect(undeclared?.lifetimeDollarsPurchased == 0, "a price in another currency is not converted: undeclared")
    }
}
