import Foundation
import TallyCore
import TallySignedData
import Testing

/// A notification read in one pass (``PayloadDecoding/flatNotificationEnvelope(_:)``) must give the claims
/// verification checks exactly as the lenient `JSONDecoder` reading gives them from the same bytes.
@Suite struct NotificationFlatClaimsTests {
    static let documents = [
        #"{"notificationType":"REFUND","notificationUUID":"u","version":"2.0","signedDate":1698148900001,"data":{"bundleId":"com.example","environment":"Sandbox","appAppleId":42,"signedTransactionInfo":"a.b.c"}}"#,
        #"{"notificationType":"TEST","signedDate":0,"data":{}}"#,
        #"{"notificationType":"TEST","signedDate":1698148900001,"data":null}"#,
        #"{"signedDate":1698148900001}"#,
        #"{"notificationType":"DID_RENEW","signedDate":999999999999999,"data":{"environment":"Production","status":2}}"#,
    ]

    @Test(arguments: documents)
    func flatClaimsAreTheLenientOnes(_ document: String) throws {
        let bytes = Array(document.utf8)
        let flat = try #require(PayloadDecoding.flatNotificationEnvelope(bytes), "\(document)")
        let lenient = try PayloadDecoding.envelope(bytes, as: ServerNotification.self).get()
        #expect(flat.claims == lenient.claims)
        #expect(try flat.model.get() == lenient.model.get())
    }

    @Test func claimsTheLenientReadingCouldReadOtherwiseAreLeftToIt() {
        for document in [#"{"notificationType":"TEST"}"#, #"{"notificationType":"TEST","signedDate":-5}"#] {
            #expect(PayloadDecoding.flatNotificationEnvelope(Array(document.utf8)) == nil, "\(document)")
        }
    }
}
