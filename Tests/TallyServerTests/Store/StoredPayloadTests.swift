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

    /// A device's transaction: unknown scalar fields (`deviceVerification`, `deviceVerificationNonce`, and
    /// awkward ones sorting before, between and after the known keys) are written directly, in sorted order.
    static let device: StoreTransaction = {
        var transaction = full
        transaction.unknownFields = [
            "deviceVerification": .string("f0ICaMFDcjrVIq5mDE1Ys4Ms2mpzpNGF2U9hkDZbnSdnQqjk7G1v8GTkyKxiaZ/W"),
            "deviceVerificationNonce": .string("5a0d9b2e-4c1f-4f6e-9d3a-2b8c7e1f0a64"),
            "AUpper": .integer(-7), "zz\u{1}\"esc": .bool(true), "offerTypeX": .null, "": .string("empty key"),
        ]
        return transaction
    }()

    @Test func deviceFieldsAreWrittenDirectlyInSortedOrder() throws {
        let bytes = try #require(TransactionPayloadJSON.bytes(Self.device))
        let direct = try JSONDecoder().decode(StoreTransaction.self, from: Data(bytes))
        #expect(direct == (try Self.viaFoundation(Self.device)))
        #expect(try StoreTransaction(payloadJSON: bytes) == direct)
        let ours = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary)
        let theirs = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.device)) as? NSDictionary)
        #expect(ours == theirs)
        // Keys in UTF-8 order: each key's offset grows with the key.
        let text = String(decoding: bytes, as: UTF8.self)
        let keys = (ours.allKeys as? [String] ?? []).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let offsets = try keys.map { key in
            let quoted = String(decoding: try JSONEncoder().encode(key), as: UTF8.self) + ":"
            return try #require(text.range(of: quoted)).lowerBound
        }
        #expect(offsets == offsets.sorted())
        #expect(try StoredPayloadJSON.normalized(Self.device) == (try Self.viaFoundation(Self.device)))
    }

    @Test func unknownFieldNamedAsAKnownOneIsLeftToTheEncoder() {
        var transaction = Self.full
        transaction.unknownFields = ["productId": .string("other")]
        #expect(TransactionPayloadJSON.bytes(transaction) == nil)
        transaction.unknownFields = ["future": .number(1.5)]
        #expect(TransactionPayloadJSON.bytes(transaction) == nil)
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
