import Foundation
import TallyCore
import Testing

/// `StoreTransaction(flatPayload:)` reads Apple's flat payloads without `JSONDecoder`: whatever it returns must be
/// exactly what `JSONDecoder` decodes from the same bytes, and it must decline (nil) every document it cannot
/// read that way, so that `JSONDecoder` alone says why a document is refused.
@Suite struct TransactionFlatPayloadTests {
    /// Every member a transaction payload can carry as a scalar, with a plausible value.
    static let fullMembers: [(String, String)] = [
        ("transactionId", "\"2000000847061981\""), ("originalTransactionId", "\"2000000847061900\""),
        ("webOrderLineItemId", "\"34343\""), ("bundleId", "\"com.example\""),
        ("productId", "\"com.example.product\""), ("subscriptionGroupIdentifier", "\"55555\""),
        ("purchaseDate", "1698148900000"), ("originalPurchaseDate", "1698148800000"),
        ("expiresDate", "1698149000000"), ("quantity", "2"), ("type", "\"Auto-Renewable Subscription\""),
        ("appAccountToken", "\"7e3fb20b-4cdb-47cc-936d-99d65f608138\""), ("inAppOwnershipType", "\"PURCHASED\""),
        ("signedDate", "1698148900001"), ("revocationReason", "1"), ("revocationDate", "1698148950000"),
        ("isUpgraded", "true"), ("offerType", "1"), ("offerIdentifier", "\"abc.123\""),
        ("environment", "\"Sandbox\""), ("storefront", "\"USA\""), ("storefrontId", "\"143441\""),
        ("transactionReason", "\"PURCHASE\""), ("currency", "\"USD\""), ("price", "10990"),
        ("offerDiscountType", "\"PAY_AS_YOU_GO\""), ("appTransactionId", "\"71134\""), ("offerPeriod", "\"P1Y\""),
        ("revocationType", "\"REFUND_PRORATED\""), ("revocationPercentage", "50000"),
        ("billingPlanType", "\"MONTHLY\""),
    ]

    static func foundation(_ bytes: [UInt8]) -> StoreTransaction? {
        try? JSONDecoder().decode(StoreTransaction.self, from: Data(bytes))
    }

    static func render(_ members: [(String, String)], space: String = "") -> [UInt8] {
        Array(("{" + members.map { "\(space)\"\($0.0)\"\(space):\(space)\($0.1)\(space)" }.joined(separator: ",") + "}").utf8)
    }

    @Test func aFullFlatPayloadReadsAsJSONDecoderReadsIt() throws {
        for space in ["", " ", "\n\t", "\r\n  "] {
            let bytes = Self.render(Self.fullMembers, space: space)
            let flat = try #require(StoreTransaction(flatPayload: bytes), "\(String(decoding: bytes, as: UTF8.self))")
            #expect(flat == Self.foundation(bytes))
            #expect(flat.unknownFields.isEmpty, "a known key was taken for an unknown one: \(flat.unknownFields)")
            #expect(flat.price == 10990 && flat.quantity == 2 && flat.isUpgraded == true)
        }
    }

    @Test func everyRealAppleTransactionPayloadIsReadInOnePass() throws {
        let directory = CatalogVectors.directory.deletingLastPathComponent().appendingPathComponent("apple-real/jws")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("transaction_") && $0.hasSuffix(".jws") }.sorted()
        #expect(names.count >= 5, "\(directory.path)")
        for name in names {
            let jws = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            let bytes = try #require(Self.payloadBytes(jws), "\(name)")
            let expected = try #require(Self.foundation(bytes), "\(name)")
            #expect(StoreTransaction(flatPayload: bytes) == expected, "\(name)")
            #expect(try StoreTransaction(payloadJSON: bytes) == expected, "\(name)")
        }
    }

    @Test func appleLibraryModelsMatchOrAreDeclined() throws {
        let models = CatalogVectors.directory.deletingLastPathComponent().appendingPathComponent("apple-server-library/python/tests/resources/models")
        let nested = try Array(Data(contentsOf: models.appendingPathComponent("signedTransaction.json")))
        #expect(StoreTransaction(flatPayload: nested) == nil, "advancedCommerceInfo is an object: JSONDecoder reads it")
        let expected = try #require(Self.foundation(nested))
        #expect(try StoreTransaction(payloadJSON: nested) == expected)
        #expect(expected.advancedCommerceInfo != nil)
        for name in try FileManager.default.contentsOfDirectory(atPath: models.path) where name.hasSuffix(".json") {
            let bytes = try Array(Data(contentsOf: models.appendingPathComponent(name)))
            if let flat = StoreTransaction(flatPayload: bytes) {
                #expect(flat == Self.foundation(bytes), "\(name)")
            }
        }
    }

    @Test(arguments: [
        ("an escape in a string", #"{"transactionId":"1\u0032","productId":"p","type":"Consumable","purchaseDate":1}"#),
        ("a fraction", #"{"transactionId":"1","productId":"p","type":"Consumable","purchaseDate":1.5}"#),
        ("an exponent", #"{"transactionId":"1","productId":"p","type":"Consumable","purchaseDate":1e3}"#),
        ("a repeated key", #"{"transactionId":"1","transactionId":"2","productId":"p","type":"Consumable","purchaseDate":1}"#),
        ("a repeated unknown key", #"{"transactionId":"1","x":1,"x":2,"productId":"p","type":"Consumable","purchaseDate":1}"#),
        ("a nested unknown value", #"{"transactionId":"1","x":[],"productId":"p","type":"Consumable","purchaseDate":1}"#),
        ("text after the object", #"{"transactionId":"1","productId":"p","type":"Consumable","purchaseDate":1} x"#),
        ("a missing required key", #"{"transactionId":"1","type":"Consumable","purchaseDate":1}"#),
        ("a null required key", #"{"transactionId":"1","productId":null,"type":"Consumable","purchaseDate":1}"#),
        ("a number for a string", #"{"transactionId":1,"productId":"p","type":"Consumable","purchaseDate":1}"#),
        ("a string for a date", #"{"transactionId":"1","productId":"p","type":"Consumable","purchaseDate":"1"}"#),
        ("a leading zero", #"{"transactionId":"1","productId":"p","type":"Consumable","purchaseDate":01}"#),
        ("an integer beyond Int64", #"{"transactionId":"1","productId":"p","type":"Consumable","purchaseDate":9223372036854775808}"#),
        ("a trailing comma", #"{"transactionId":"1","productId":"p","type":"Consumable","purchaseDate":1,}"#),
    ])
    func declines(_ reason: String, _ text: String) {
        #expect(StoreTransaction(flatPayload: Array(text.utf8)) == nil, "\(reason)")
    }

    @Test func invalidUTF8IsDeclined() {
        var bytes = Array(#"{"transactionId":"1","productId":"p"#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#"","type":"Consumable","purchaseDate":1}"#.utf8)
        #expect(StoreTransaction(flatPayload: bytes) == nil)
        #expect(Self.foundation(bytes) == nil)
    }

    /// Thousands of payloads built from the full one by random edits — some JSON `JSONDecoder` reads, some
    /// it refuses, some the one-pass reader must decline: the reader never gives another value than
    /// `JSONDecoder`, never a value where `JSONDecoder` refuses, and `StoreTransaction(payloadJSON:)` always
    /// gives `JSONDecoder`'s answer.
    @Test func randomEditsNeverDisagreeWithJSONDecoder() throws {
        var random = SplitMix64(seed: 0x7A11_F1A7)
        var engaged = 0, refused = 0
        let count = 4_000
        for _ in 0..<count {
            let bytes = Self.randomPayload(&random)
            let expected = Self.foundation(bytes)
            let flat = StoreTransaction(flatPayload: bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            if let flat {
                engaged += 1
                #expect(flat == expected, "\(text)")
            }
            if expected == nil { refused += 1 }
            #expect((try? StoreTransaction(payloadJSON: bytes)) == expected, "\(text)")
        }
        // The edits must exercise both sides, or the test would say nothing.
        #expect(engaged > count / 5, "engaged \(engaged)")
        #expect(refused > count / 10, "refused \(refused)")
    }

    static let editValues = [
        "null", "true", "false", "0", "-0", "7", "-7", "01", "1.0", "1.5", "1e3", "-1E-2",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551616",
        "\"\"", "\"plain\"", "\"caf\u{E9}\"", "\"cafe\u{301}\"", "\"\u{212A}\"", "\"\u{1F600}\"", #""a\"b""#,
        #""\u00e9""#, #""tab\there""#, "\"Consumable\"", "{}", "[]", "[1]", "{\"a\":1}", "\"1698148900000\"",
    ]

    static func randomPayload(_ random: inout SplitMix64) -> [UInt8] {
        var members = fullMembers
        members.shuffle(using: &random)
        for _ in 0..<random.below(4) {
            switch random.below(6) {
            case 0, 1:  // a new value for a member
                let index = random.below(members.count)
                members[index].1 = editValues[random.below(editValues.count)]
            case 2 where !members.isEmpty:  // drop a member
                members.remove(at: random.below(members.count))
            case 3 where !members.isEmpty:  // repeat a member
                members.append(members[random.below(members.count)])
            case 4:  // an unknown member
                members.insert(("x\(random.below(3))", editValues[random.below(editValues.count)]),
                               at: random.below(members.count + 1))
            default:  // a key spelled with other bytes (an equivalent or a look-alike)
                let index = random.below(members.count)
                members[index].0 = ["transactionI\u{301}d", "\u{212A}ey", "productid", "type "][random.below(4)]
            }
        }
        let space = ["", " ", "\n"][random.below(3)]
        var bytes = render(members, space: space)
        switch random.below(20) {
        case 0: bytes += Array(" x".utf8)
        case 1: bytes.removeLast(random.below(min(5, bytes.count)) + 1)
        case 2: bytes.insert(UInt8(ascii: " "), at: 0)
        default: break
        }
        return bytes
    }

    /// The payload segment of a compact JWS, decoded from base64url.
    static func payloadBytes(_ jws: String) -> [UInt8]? {
        let parts = jws.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".")
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text).map(Array.init)
    }
}
