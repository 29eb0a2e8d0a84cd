import Foundation
import Testing
@testable import TallyVerify

/// Compares every field the vectors' `.decoded.json` dumps (made independently with Python's asn1crypto)
/// with what `AppReceipt.parse` reads.
@Suite("Receipt decoding")
struct ReceiptDecodingTests {
    @Test("each real receipt decodes to every field its .decoded.json lists", arguments: ReceiptVectors.realReceiptNames())
    func decodesEveryListedField(name: String) throws {
        let receipt = try AppReceipt.parse(base64: ReceiptVectors.realReceipt(name)).get()
        let fields = try #require(try ReceiptVectors.decoded(name)["fields"] as? [[String: Any]])
        var unknownExpected: [[String: Any]] = []
        var inAppExpected: [[[String: Any]]] = []
        for field in fields {
            let type = try #require(field["type"] as? Int)
            let value = field["value"] as Any
            switch type {
            case 0: #expect(receipt.receiptType == value as? String, "type 0 of \(name)")
            case 1: #expect(receipt.appAppleId == (value as? NSNumber)?.int64Value, "type 1 of \(name)")
            case 2: #expect(receipt.bundleId == value as? String, "type 2 of \(name)")
            case 3: #expect(receipt.applicationVersion == value as? String, "type 3 of \(name)")
            case 4: try Self.expectOpaque(receipt.opaqueValue, value, "type 4 of \(name)")
            case 5: try Self.expectOpaque(receipt.sha1Hash, value, "type 5 of \(name)")
            case 10: #expect(receipt.ageRating == value as? String, "type 10 of \(name)")
            case 12: #expect(receipt.creationDate == (try Self.date(value)), "type 12 of \(name)")
            case 18: #expect(receipt.originalPurchaseDate == (try Self.date(value)), "type 18 of \(name)")
            case 19: #expect(receipt.originalApplicationVersion == value as? String, "type 19 of \(name)")
            case 21: #expect(receipt.expirationDate == (try Self.date(value)), "type 21 of \(name)")
            case 17: inAppExpected.append(try #require(value as? [[String: Any]]))
            default: unknownExpected.append(field)
            }
        }
        try Self.expectUnknown(receipt.unknownAttributes, unknownExpected, context: name)
        try #require(receipt.inAppPurchases.count == inAppExpected.count)
        for (index, (purchase, expected)) in zip(receipt.inAppPurchases, inAppExpected).enumerated() {
            try Self.expectInApp(purchase, expected, context: "\(name) in-app #\(index)")
        }
    }

    @Test("the Xcode receipt with a transaction decodes to the fields Apple's test data lists")
    func xcodeReceiptFields() throws {
        let receipt = try AppReceipt.parse(base64: ReceiptVectors.xcodeReceipt("xcode-app-receipt-with-transaction")).get()
        #expect(receipt.receiptType == "Xcode")
        #expect(receipt.appAppleId == 0)
        #expect(receipt.bundleId == "com.example.naturelab.backyardbirds.example")
        #expect(receipt.applicationVersion == "1")
        #expect(receipt.creationDate == (try Self.date("2023-10-19T01:45:40Z")))
        #expect(receipt.expirationDate == (try Self.date("4001-01-01T00:00:00Z")))
        let purchase = try #require(receipt.inAppPurchases.first)
        #expect(receipt.inAppPurchases.count == 1)
        #expect(purchase.quantity == 1)
        #expect(purchase.productId == "pass.premium")
        #expect(purchase.transactionId == "0")
        #expect(purchase.purchaseDate == (try Self.date("2023-10-19T01:45:36Z")))
        #expect(purchase.expiresDate == (try Self.date("2023-11-19T01:45:36Z")))
        #expect(purchase.isInIntroOfferPeriod == true)
        #expect(purchase.originalTransactionId == nil)
        let empty = try AppReceipt.parse(base64: ReceiptVectors.xcodeReceipt("xcode-app-receipt-empty")).get()
        #expect(empty.inAppPurchases.isEmpty)
        #expect(empty.creationDate == (try Self.date("2023-10-19T01:18:54Z")))
    }

    @Test("a decoded receipt survives a JSON round trip")
    func codableRoundTrip() throws {
        let receipt = try AppReceipt.parse(base64: ReceiptVectors.realReceipt(ReceiptVectors.getpure)).get()
        let data = try JSONEncoder().encode(receipt)
        #expect(try JSONDecoder().decode(AppReceipt.self, from: data) == receipt)
    }

    // MARK: - Comparison helpers

    static func expectInApp(_ purchase: InAppPurchase, _ fields: [[String: Any]], context: String) throws {
        var unknown: [[String: Any]] = []
        for field in fields {
            let type = try #require(field["type"] as? Int)
            let value = field["value"] as Any
            let number = (value as? NSNumber)?.int64Value
            let where_ = "\(context) type \(type)"
            switch type {
            case 1701: #expect(Int64(purchase.quantity) == number, "\(where_)")
            case 1702: #expect(purchase.productId == value as? String, "\(where_)")
            case 1703: #expect(purchase.transactionId == value as? String, "\(where_)")
            case 1704: #expect(purchase.purchaseDate == (try date(value)), "\(where_)")
            case 1705: #expect(purchase.originalTransactionId == value as? String, "\(where_)")
            case 1706: #expect(purchase.originalPurchaseDate == (try date(value)), "\(where_)")
            case 1707: #expect(purchase.productType.map(Int64.init) == number, "\(where_)")
            case 1708: #expect(purchase.expiresDate == (try date(value)), "\(where_)")
            case 1711: #expect(purchase.webOrderLineItemId == number, "\(where_)")
            case 1712: #expect(purchase.cancellationDate == (try date(value)), "\(where_)")
            case 1713: #expect(purchase.isTrialPeriod == number.map { $0 == 1 }, "\(where_)")
            case 1719: #expect(purchase.isInIntroOfferPeriod == number.map { $0 == 1 }, "\(where_)")
            case 1721: #expect(purchase.offerIdentifier == value as? String, "\(where_)")
            default: unknown.append(field)
            }
        }
        try expectUnknown(purchase.unknownAttributes, unknown, context: context)
    }

    /// Unknown attributes must all be kept, in order, with the listed values.
    static func expectUnknown(_ attributes: [ReceiptAttribute], _ fields: [[String: Any]], context: String) throws {
        try #require(attributes.count == fields.count, "unknown attribute count of \(context)")
        for (attribute, field) in zip(attributes, fields) {
            let type = try #require(field["type"] as? Int)
            #expect(attribute.type == type, "\(context)")
            let value = field["value"] as Any
            if [6, 7].contains(type) {
                try expectOpaque(attribute.value, value, "\(context) type \(type)")
            } else if let text = value as? String {
                #expect(attribute.stringValue == text, "\(context) type \(type)")
            } else if let number = value as? NSNumber {
                #expect(attribute.integerValue == number.int64Value, "\(context) type \(type)")
            } else {
                Issue.record("\(context) type \(type): unexpected JSON value \(value)")
            }
        }
    }

    /// Opaque bytes: the dump writes `raw:<hex>` when the bytes are not DER; otherwise it shows whatever
    /// DER the bytes happened to parse as (`hex:<contents>`, a number, an OID, null), which can only be
    /// checked for presence or containment.
    static func expectOpaque(_ bytes: Data?, _ value: Any, _ context: String) throws {
        let bytes = try #require(bytes, "\(context) missing")
        if let text = value as? String, text.hasPrefix("raw:") {
            #expect(bytes == (try hex(String(text.dropFirst(4)))), "\(context)")
        } else if let text = value as? String, text.hasPrefix("hex:") {
            #expect(bytes.range(of: try hex(String(text.dropFirst(4)))) != nil, "\(context)")
        } else {
            #expect(!bytes.isEmpty, "\(context)")
        }
    }

    static func hex(_ text: String) throws -> Data {
        var data = Data()
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            data.append(try #require(UInt8(text[index..<next], radix: 16)))
            index = next
        }
        return data
    }

    /// A dump date string through Foundation's own ISO 8601 parser; "" is nil.
    static func date(_ value: Any) throws -> Date? {
        let text = try #require(value as? String)
        if text.isEmpty { return nil }
        let parsed: Date? = ISO8601DateFormatter().date(from: text)
        return try #require(parsed, "unparsable test date \(text)")
    }
}
