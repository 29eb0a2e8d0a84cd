import Foundation
import TallyCore

extension SignedClaims {
    /// The claims a `.transaction` check reads (`signedDate`, `bundleId`, `environment`, `transactionId`),
    /// taken from a transaction that decoded strictly, so the payload is not read a second time.
    /// nil when the lenient reading could differ: no `signedDate`, or one before 1970 or absurdly late (whole-second
    /// rounding of a truncated millisecond matches the exact value only for non-negative times).
    package init?(transaction: StoreTransaction) {
        // Integer milliseconds below 1e15 (year 33658) survive the trip through `Date` exactly.
        guard let signed = transaction.signedDate else { return nil }
        let milliseconds = (signed.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds >= 0, milliseconds < 1e15 else { return nil }
        signedDate = milliseconds
        receiptCreationDate = nil
        bundleId = transaction.bundleId
        environment = transaction.environment?.rawValue
        appAppleId = nil
        receiptType = nil
        notificationType = nil
        transactionId = transaction.transactionId
        hasAutoRenewStatus = transaction.unknownFields["autoRenewStatus"] != nil
        data = nil
        summary = nil
        externalPurchaseToken = nil
        appData = nil
    }
}

extension SignedClaims {
    /// The claims a `.notification` check reads, taken from a notification that ``ServerNotification/init(flatPayload:)``
    /// decoded (only Tally's keys, `data` the one object), so the payload is not read a second time: `signedDate`,
    /// `notificationType` and `data`'s identity. nil when the lenient reading could differ (no `signedDate`, or one
    /// before 1970 or absurdly late, as for transactions).
    package init?(flatNotification notification: ServerNotification) {
        guard let signed = notification.signedDate else { return nil }
        let milliseconds = (signed.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds >= 0, milliseconds < 1e15 else { return nil }
        signedDate = milliseconds
        receiptCreationDate = nil
        bundleId = nil
        environment = nil
        appAppleId = nil
        receiptType = nil
        notificationType = notification.notificationType?.rawValue
        transactionId = nil
        hasAutoRenewStatus = false
        data = notification.data.map { data in
            AppIdentity(bundleId: data.bundleId, appAppleId: data.appAppleId, environment: data.environment?.rawValue,
                        externalPurchaseId: nil)
        }
        summary = nil
        externalPurchaseToken = nil
        appData = nil
    }
}
