import Foundation
import TallyCore
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage
import Testing

/// The stored `payload` column is written without `JSONEncoder` (``TransactionPayloadJSON``): it must read back
/// exactly as `JSONEncoder`'s output did (rows written by earlier versions and new rows decode alike), and the
/// value a post is compared with must be the value that reads back.
@Suite struct StoredPayloadTests {
    /// Every field set, awkward text and dates between milliseconds.
    static let full = StoreTransaction(
        transactionId: "2000000123456789", originalTransactionId: "2000000000000001", webOrderLineItemId: "w/1",
        bundleId: "com.example.\"quoted\"", productId: "app.pro.month", subscriptionGroupIdentifier: "grøup\\1",
        purchaseDate: Date(timeIntervalSince1970: 1_796_014_800.123_456),
        originalPurchaseDate: Date(timeIntervalSince1970: 1_700_000_000.000_6),
        expiresDate: Date(timeIntervalSince1970: 1_798_606_800.999_9), quantity: 3, type: .autoRenewable,
        appAccountToken: "7E3FB20B-4CDB-47CC-936D-99D65F608138", inAppOwnershipType: .familyShared,
        signedDate: Date(timeIntervalSince1970: 1_796_014_801.000_4), revocationReason: .appIssue,
        revocationDate: Date(timeIntervalSince1970: 1_796_100_000.5), isUpgraded: false, offerType: .promotional,
        offerIdentifier: "line\nbreak\ttab\u{1}\u{7F}", environment: .sandbox, storefront: "USA",
        storefrontId: "143441", transactionReason: .renewal, currency: "USD", price: -9_223_372_036_854_775_807,
        offerDiscountType: .payAsYouGo, appTransactionId: "704", offerPeriod: "P1M", revocationType: .refundProrated,
        revocationPercentage: 50_000, billingPlanType: BillingPlanType(rawValue: "MONTHLY"))

    /// Only what a transaction requires.
    static let sparse = StoreTransaction(transactionId: "1", productId: "app.coins.100",
                                    purchaseDate: Date(timeIntervalSince1970: -0.0015), type: .consumable,
                                    inAppOwnershipType: nil)

    static func viaFoundation(_ transaction: StoreTransaction) throws -> StoreTransaction {
        try JSONDecoder().decode(StoreTransaction.self, from: JSONEncoder().encode(transaction))
    }

    @Test(arguments: [full, sparse])
    func directPayloadReadsBackAsFoundationsDid(_ transaction: StoreTransaction) throws {
        let bytes = try #require(TransactionPayloadJSON.bytes(transaction))
        let direct = try JSONDecoder().decode(StoreTransaction.self, from: Data(bytes))
        #expect(direct == (try Self.viaFoundation(transaction)))
        // The same members as JSONEncoder writes (its key order is not fixed, so bytes are not compared).
        let ours = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary)
        let theirs = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(transaction)) as? NSDictionary)
        #expect(ours == theirs)
    }

    @Test(arguments: [full, sparse])
    func normalizedValueIsWhatReadsBack(_ transaction: StoreTransaction) throws {
        #expect(try StoredPayloadJSON.normalized(transaction) == (try Self.viaFoundation(transaction)))
        #expect(try StoredPayloadJSON.normalized(transaction) != transaction)  // the fractions are gone
    }

    @Test func rawJSONFieldsStillRoundTripThroughCodable() throws {
        var transaction = Self.full
        transaction.unknownFields = ["futureField": .object(["n": .number(2.0), "list": .array([.integer(1), .null])])]
        transaction.commitmentInfo = .object(["months": .integer(12)])
        #expect(TransactionPayloadJSON.bytes(transaction) == nil)
        let normalized = try StoredPayloadJSON.normalized(transaction)
        #expect(normalized == (try Self.viaFoundation(transaction)))
        let stored = try StoredValueCoding.transaction(json: try StoredPayloadJSON.json(transaction), id: "x")
        #expect(stored == normalized)
    }

    @Test func storeReturnsWhatWasPostedAtWholeMilliseconds() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
        var transaction = Self.full
        transaction.productId = "app.pro.month"
        let posted = StoredTransaction(transaction: transaction, source: .signedTransaction, signedTransaction: "j.w.s")
        #expect(try store.record([posted], for: "alice", policy: .transfer, at: StoreFixtures.start).inserted
            == [transaction.transactionId])
        let record = try store.customer("alice")
        #expect(record.transactions.map(\.transaction) == [try Self.viaFoundation(transaction)])
        // The same post again is the same value: unchanged, not updated.
        #expect(try store.record([posted], for: "alice", policy: .transfer, at: StoreFixtures.start).unchanged
            == [transaction.transactionId])
    }
}
