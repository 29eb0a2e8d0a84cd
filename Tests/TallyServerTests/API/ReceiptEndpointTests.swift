import Foundation
import TallyCore
import TallyVerify
import Testing
@testable import TallyServer

@Suite("POST /v1/customers/{id}/receipts")
struct ReceiptEndpointTests {
    static let receipts = ServerFixture.sharedVectors.appendingPathComponent("apple-real/receipts")
    static let sandboxReceipt = "receipt_ProductionSandbox_com.revenuecat.sampleapp_2020-07-22_d18b7c0f"
    static let productionReceipt = "receipt_Production_org.getpure.pure-iphone_2024-02-23_cc209380"
    static let annual = "com.revenuecat.annual_39.99.2_week_intro"

    static func receipt(_ name: String) throws -> String {
        try String(contentsOf: receipts.appendingPathComponent(name + ".b64"), encoding: .utf8)
    }

    static func body(_ name: String) throws -> String {
        #"{"receipt":"\#(try receipt(name).filter { !$0.isWhitespace })"}"#
    }

    /// A server for the receipt's app whose catalog calls the annual product a non-consumable.
    static func fixture(environments: [StoreEnvironment] = [.sandbox], bundleId: String = "com.revenuecat.sampleapp",
                        database: StoreUnderTest? = nil) throws -> ServerFixture
    {
        let catalog = Catalog(products: [CatalogProduct(id: annual, kind: .nonConsumable, price: 39.99, currency: "USD")])
        return try ServerFixture(environments: environments, bundleId: bundleId, catalog: catalog,
                                 appConfiguration: AppConfiguration(bundleId: bundleId, entitlements: ["annual": [annual]]),
                                 database: database)
    }

    @Test("a real sandbox receipt imports every in-app record once, typed by the catalog", arguments: StoreKind.tested)
    func importsOnce(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let fixture = try Self.fixture(database: database)
        let expected = try ReceiptVerifier().verify(base64: Self.receipt(Self.sandboxReceipt)).get()
            .transactions().map(\.transactionId)
        #expect(expected.count == 9)
        let first = fixture.send("POST", "/v1/customers/r/receipts", key: ServerFixture.publicKey,
                                 body: try Self.body(Self.sandboxReceipt))
        #expect(first.status == 200)
        let imported = try #require(first.json["imported"] as? [String: Int])
        #expect(imported == ["inserted": 9, "updated": 0, "unchanged": 0, "transferred": 0, "kept": 0])
        #expect(first.features == ["annual"])
        #expect(first.customer["nonConsumables"] as? [String] == [Self.annual])
        let again = fixture.send("POST", "/v1/customers/r/receipts", key: ServerFixture.publicKey,
                                 body: try Self.body(Self.sandboxReceipt))
        #expect((again.json["imported"] as? [String: Int])?["unchanged"] == 9)
        let stored = try fixture.store.customer("r").transactions
        #expect(Set(stored.map(\.transaction.transactionId)) == Set(expected))
        #expect(stored.allSatisfy { $0.source == .receipt && $0.signedTransaction == nil })
        let types = Dictionary(stored.map { ($0.transaction.productId, $0.transaction.type) }, uniquingKeysWith: { a, _ in a })
        #expect(types[Self.annual] == .nonConsumable)
        #expect(types["com.revenuecat.monthly_4.99.1_week_intro"] == .autoRenewable)
        #expect(fixture.api.metrics.verifications(kind: "receipt", result: "valid") == 2)
    }

    @Test("a receipt of another app is 422 INVALID_APP_IDENTIFIER; of an environment not accepted, INVALID_ENVIRONMENT")
    func refused() throws {
        let other = try Self.fixture(bundleId: "com.example.market")
        let wrongApp = other.send("POST", "/v1/customers/r/receipts", key: ServerFixture.publicKey,
                                  body: try Self.body(Self.sandboxReceipt))
        #expect(wrongApp.status == 422)
        #expect(wrongApp.errorReason == "INVALID_APP_IDENTIFIER")
        let production = try ReceiptVerifier().verify(base64: Self.receipt(Self.productionReceipt)).get()
        let sandboxOnly = try Self.fixture(bundleId: production.bundleId)
        let wrongEnvironment = sandboxOnly.send("POST", "/v1/customers/r/receipts", key: ServerFixture.publicKey,
                                                body: try Self.body(Self.productionReceipt))
        #expect(wrongEnvironment.status == 422)
        #expect(wrongEnvironment.errorReason == "INVALID_ENVIRONMENT")
        let garbage = sandboxOnly.send("POST", "/v1/customers/r/receipts", key: ServerFixture.publicKey,
                                       body: #"{"receipt":"bm90IGEgcmVjZWlwdA=="}"#)
        #expect(garbage.status == 422)
        #expect(garbage.errorReason == "VERIFICATION_FAILURE")
        #expect(sandboxOnly.api.metrics.verifications(kind: "receipt", result: "INVALID_ENVIRONMENT") == 1)
    }
}
