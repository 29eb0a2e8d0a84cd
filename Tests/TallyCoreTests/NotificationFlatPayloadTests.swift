import Foundation
import TallyCore
import Testing

/// `ServerNotification(flatPayload:)` reads Apple's notifications about a transaction without `JSONDecoder`: whatever
/// it returns must be exactly what `JSONDecoder` decodes from the same bytes, and it must decline (nil) every
/// document it cannot read that way, so that `JSONDecoder` alone says why a document is refused.
@Suite struct NotificationFlatPayloadTests {
    static let data: [(String, String)] = [
        ("appAppleId", "1234567890"), ("bundleId", "\"com.example\""), ("bundleVersion", "\"1.0\""),
        ("environment", "\"Sandbox\""), ("signedTransactionInfo", "\"a.b.c\""), ("signedRenewalInfo", "\"d.e.f\""),
        ("status", "1"), ("consumptionRequestReason", "\"UNINTENDED_PURCHASE\""),
    ]

    static func document(top extra: [(String, String)] = [], data: [(String, String)] = Self.data, space: String = "")
        -> [UInt8]
    {
        func object(_ members: [(String, String)]) -> String {
            "{" + members.map { "\(space)\"\($0.0)\"\(space):\(space)\($0.1)\(space)" }.joined(separator: ",") + "}"
        }
        let top: [(String, String)] = [
            ("notificationType", "\"DID_RENEW\""), ("subtype", "\"BILLING_RECOVERY\""),
            ("notificationUUID", "\"002e14d5-51f5-4503-b5a8-c3a1af68eb20\""), ("version", "\"2.0\""),
            ("signedDate", "1698148900001"), ("data", object(data)),
        ]
        return Array(object(top + extra).utf8)
    }

    static func foundation(_ bytes: [UInt8]) -> ServerNotification? {
        try? JSONDecoder().decode(ServerNotification.self, from: Data(bytes))
    }

    @Test func aFullNotificationReadsAsJSONDecoderReadsIt() throws {
        for space in ["", " ", "\n\t", "\r\n  "] {
            let bytes = Self.document(space: space)
            let flat = try #require(ServerNotification(flatPayload: bytes), "\(String(decoding: bytes, as: UTF8.self))")
            #expect(flat == Self.foundation(bytes))
            #expect(flat.data?.status == 1 && flat.data?.appAppleId == 1_234_567_890)
        }
    }

    @Test func nullsAndAbsentMembersReadAsJSONDecoderReadsThem() throws {
        let cases: [[UInt8]] = [
            Self.document(data: []),
            Self.document(data: [("status", "null"), ("bundleId", "\"x\"")]),
            Array(#"{"notificationType":"TEST","signedDate":1,"data":null}"#.utf8),
            Array(#"{"notificationType":null,"signedDate":1}"#.utf8),
            Array("{}".utf8),
        ]
        for bytes in cases {
            let flat = try #require(ServerNotification(flatPayload: bytes), "\(String(decoding: bytes, as: UTF8.self))")
            #expect(flat == Self.foundation(bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func everyOtherShapeIsDeclined() {
        let declined: [[UInt8]] = [
            Self.document(top: [("summary", #"{"bundleId":"x"}"#)]),
            Self.document(top: [("appData", #"{"bundleId":"x"}"#)]),
            Self.document(top: [("futureField", "1")]),
            Self.document(top: [("signedDate", "2")]),  // repeated
            Self.document(top: [("data", "{}")]),  // repeated object
            Self.document(data: Self.data + [("externalPurchaseId", "\"x\"")]),
            Self.document(data: [("bundleId", "\"x\""), ("bundleId", "\"y\"")]),
            Self.document(data: [("status", "\"1\"")]),
            Self.document(data: [("appAppleId", "1.5")]),
            Self.document(data: [("bundleId", #"{"deeper":1}"#)]),
            Self.document(data: [("bundleId", #""esc\"aped""#)]),
            Array(#"{"notificationType":"TEST","signedDate":1.5}"#.utf8),
            Array(#"{"notificationType":1}"#.utf8),
            Array(#"{"data":"not an object"}"#.utf8),
            Array(#"{"data":[1]}"#.utf8),
            Self.document() + Array(" x".utf8),
        ]
        for bytes in declined {
            #expect(ServerNotification(flatPayload: bytes) == nil, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func theRealAppleNotificationReadsAsJSONDecoderReadsItOrIsDeclined() throws {
        let directory = CatalogVectors.directory.deletingLastPathComponent().appendingPathComponent("apple-real/jws")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("notification_") && $0.hasSuffix(".jws") }.sorted()
        #expect(!names.isEmpty, "\(directory.path)")
        for name in names {
            let jws = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            let bytes = try #require(TransactionFlatPayloadTests.payloadBytes(jws), "\(name)")
            let expected = try #require(Self.foundation(bytes), "\(name)")
            if let flat = ServerNotification(flatPayload: bytes) { #expect(flat == expected, "\(name)") }
        }
    }
}
