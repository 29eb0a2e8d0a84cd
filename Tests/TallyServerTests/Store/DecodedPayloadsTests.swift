import Foundation
import TallyCore
import TallySQLite
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage
import Testing

private typealias F = StoreFixtures

/// A state read decodes each stored payload once per connection; what it remembers must be exactly what
/// decoding gives, byte for byte.
@Suite struct DecodedPayloadsTests {
    private func payload(productId: String, id: String = "t1") throws -> String {
        try StoredPayloadJSON.json(StoreTransaction(transactionId: id, productId: productId, purchaseDate: F.start,
                                               type: .nonConsumable, signedDate: F.start))
    }

    @Test func aRememberedPayloadIsWhatDecodingGives() throws {
        var memo = DecodedPayloads()
        let json = try payload(productId: "app.premium")
        let first = try memo.transaction(json: json, id: "t1")
        #expect(try memo.transaction(json: json, id: "t1") == first)
        #expect(first == (try StoredValueCoding.transaction(json: json, id: "t1")))
        #expect(memo.count == 1)
    }

    @Test func payloadsThatDifferOnlyInNormalizationStayApart() throws {
        var memo = DecodedPayloads()
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(composed == decomposed)  // Swift's String equality would merge them
        for _ in 0..<2 {  // alternating: each lookup compares the remembered payload's bytes
            let nfc = try memo.transaction(json: try payload(productId: composed), id: "t1")
            let nfd = try memo.transaction(json: try payload(productId: decomposed), id: "t1")
            #expect(nfc.productId.hasSameBytes(as: composed))
            #expect(nfd.productId.hasSameBytes(as: decomposed))
        }
        #expect(memo.count == 1, "one entry per transaction id")
    }

    @Test func itStartsOverWhenFull() throws {
        var memo = DecodedPayloads()
        for index in 0...DecodedPayloads.capacity {
            _ = try memo.transaction(json: try payload(productId: "app.premium", id: "t\(index)"), id: "t\(index)")
        }
        #expect(memo.count == 1)
    }

    @Test func aCorruptPayloadIsStillAnError() {
        var memo = DecodedPayloads()
        #expect(throws: SQLiteError.self) { _ = try memo.transaction(json: "{", id: "t1") }
        #expect(memo.count == 0)
    }

    @Test func stateReadsThroughTheStoreKeepEachCopyExact() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
        let refunded = F.premium("n1", revokedAt: F.day(2))
        _ = try store.record([F.premium("n1")], for: "u1", policy: .transfer, at: F.start)
        #expect(try store.customerState("u1").transactions == [F.premium("n1")])
        _ = try store.record([refunded], for: "u1", policy: .transfer, at: F.start)
        // The same read again (the payload changed): the new copy, not the remembered one.
        #expect(try store.customerState("u1").transactions.map(\.transaction.revocationDate) == [F.day(2)])
        #expect(try store.customerState("u1").transactions.map(\.transaction.revocationDate) == [F.day(2)])
    }
}
