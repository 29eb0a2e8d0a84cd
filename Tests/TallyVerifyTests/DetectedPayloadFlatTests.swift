import Foundation
import TallyCore
import Testing
@testable import TallyVerify

/// `verifyDetectingKind` reads a flat transaction payload in one pass (`DetectedPayloadEnvelope.flatTransaction`):
/// whenever it does, claims, kind and model must be exactly what the `JSONDecoder` envelope reads from the same
/// bytes, and it must decline what could be read as another kind (a `notificationType` key, even `null`).
@Suite struct DetectedPayloadFlatTests {
    static let base: [(String, String)] = [
        ("originalTransactionId", "\"2000000847061900\""), ("bundleId", "\"com.example\""),
        ("productId", "\"com.example.coins\""), ("purchaseDate", "1698148900000"), ("quantity", "1"),
        ("type", "\"Consumable\""), ("storefront", "\"USA\""), ("price", "990"), ("currency", "\"USD\""),
    ]
    static let transactionIds = [nil, "\"2000000847061981\"", "2000000847061981", "null", "\"\""]
    static let signedDates = [nil, "1698148900001", "0", "-5", "999999999999999", "1000000000000000", "null",
                              "\"1698148900001\"", "1.5"]
    static let environments = [nil, "\"Sandbox\"", "\"Production\"", "\"Xcode\"", "5", "null"]
    static let extras: [[(String, String)]] = [
        [], [("notificationType", "\"REFUND\"")], [("notificationType", "null")], [("autoRenewStatus", "1")],
        [("receiptType", "\"Production\""), ("appAppleId", "1234")], [("notificationUUID", "\"u\"")],
        [("summary", "{}")], [("notificationTyp\u{212A}", "\"K\"")], [("transactionId", "\"again\"")],
    ]

    static func render(_ members: [(String, String)]) -> [UInt8] {
        Array(("{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}").utf8)
    }

    @Test func theOnePassEnvelopeIsAlwaysJSONDecodersEnvelope() throws {
        var engaged = 0, declined = 0, total = 0
        for transactionId in Self.transactionIds {
            for signedDate in Self.signedDates {
                for environment in Self.environments {
                    for extra in Self.extras {
                        var members = Self.base
                        if let transactionId { members.insert(("transactionId", transactionId), at: 0) }
                        if let signedDate { members.append(("signedDate", signedDate)) }
                        if let environment { members.append(("environment", environment)) }
                        members += extra
                        let bytes = Self.render(members)
                        let text = String(decoding: bytes, as: UTF8.self)
                        total += 1
                        guard let flat = DetectedPayloadEnvelope.flatTransaction(bytes) else {
                            declined += 1
                            continue
                        }
                        engaged += 1
                        let full = try JSONDecoder().decode(DetectedPayloadEnvelope.self, from: Data(bytes))
                        #expect(flat.claims == full.claims, "\(text)")
                        #expect(flat.kind == full.kind, "\(text)")
                        #expect(try flat.model.get() == full.model.get(), "\(text)")
                        #expect(!text.contains("\"notificationType\""), "a notification key was read as a transaction: \(text)")
                    }
                }
            }
        }
        // Both sides must be exercised, or the comparison says nothing.
        #expect(engaged > total / 20, "engaged \(engaged) of \(total)")
        #expect(declined > total / 2, "declined \(declined) of \(total)")
    }

    /// A flat notification read in one pass (`DetectedPayloadEnvelope.flatNotification`) is what the `JSONDecoder`
    /// envelope reads; one without a `notificationType` string is left to it.
    @Test func theOnePassNotificationEnvelopeIsJSONDecodersEnvelope() throws {
        let engaged = [
            #"{"notificationType":"REFUND","notificationUUID":"u","version":"2.0","signedDate":1698148900001,"data":{"bundleId":"com.example","environment":"Sandbox","appAppleId":42,"signedTransactionInfo":"a.b.c"}}"#,
            #"{"notificationType":"TEST","signedDate":0,"data":{}}"#,
            #"{"notificationType":"DID_RENEW","subtype":"BILLING_RECOVERY","signedDate":5,"data":null}"#,
        ]
        for text in engaged {
            let bytes = Array(text.utf8)
            let flat = try #require(DetectedPayloadEnvelope.flatNotification(bytes), "\(text)")
            let full = try JSONDecoder().decode(DetectedPayloadEnvelope.self, from: Data(bytes))
            #expect(flat.claims == full.claims, "\(text)")
            #expect(flat.kind == full.kind && flat.kind == .notification, "\(text)")
            #expect(try flat.model.get() == full.model.get(), "\(text)")
        }
        for text in [#"{"signedDate":5,"data":{}}"#, #"{"notificationType":null,"signedDate":5}"#,
                     #"{"notificationType":"TEST","signedDate":5,"transactionId":"1"}"#] {
            #expect(DetectedPayloadEnvelope.flatNotification(Array(text.utf8)) == nil, "\(text)")
        }
    }

    /// Through the verifier: a signed flat transaction is detected as one and decodes as `verifyTransaction`
    /// decodes it; the same flat payload with a `notificationType` key added is not read as a transaction.
    @Test func signedPayloadsAreDetectedAsBefore() throws {
        let verifier = try JWSTestPKI.verifier()
        let signer = try JWSTestPKI.signer()
        let jws = try #require(signer.sign(JWSTestPKI.transaction(signedDate: JWSTestPKI.validDate)))
        guard case .success(.transaction(let transaction)) = verifier.verifyDetectingKind(jws) else {
            Issue.record("a signed transaction was not detected as one")
            return
        }
        #expect(transaction == (try verifier.verifyTransaction(jws).get()))

        let payload = try #require(Base64URL.decode(jws.split(separator: ".")[1]))
        #expect(DetectedPayloadEnvelope.flatTransaction(payload) != nil, "the fixture is flat: the one-pass path is tested")
        let withType = Array(payload.dropLast()) + Array(#","notificationType":"REFUND"}"#.utf8)
        let notification = try #require(signer.sign(payload: withType))
        if case .success(.transaction) = verifier.verifyDetectingKind(notification) {
            Issue.record("a payload with notificationType was read as a transaction")
        }
    }
}
