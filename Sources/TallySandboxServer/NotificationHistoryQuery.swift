import Foundation
import TallyCore
import TallyHTTP
import TallySandbox

/// The body of Get Notification History (`NotificationHistoryRequest`) and its `paginationToken`, checked as
/// Apple checks them (../shared/docs/app-store-server-api.md §4.6, server-notifications-v2.md §6).
struct NotificationHistoryQuery: Sendable {
    var startDate: Date
    var endDate: Date
    var notificationType: String?
    var notificationSubtype: String?
    var transactionId: String?
    var onlyFailures: Bool
    /// How many matching records earlier pages held.
    var offset: Int

    /// Days of history kept: TallyCore's ``TallyCore/StoreEnvironment/notificationHistoryDays``.
    static func retentionDays(production: Bool) -> Int {
        (production ? StoreEnvironment.production : StoreEnvironment.sandbox).notificationHistoryDays
    }

    init(_ request: HTTPRequest, now: Date, production: Bool) throws(AppStoreAPIError) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] else {
            throw .generalBadRequest
        }
        guard let start = Self.milliseconds(object["startDate"]) else { throw .invalidStartDate }
        guard let end = Self.milliseconds(object["endDate"]) else { throw .invalidEndDate }
        guard start < end else { throw .startDateAfterEndDate }
        startDate = Date(millisecondsSince1970: start)
        endDate = min(Date(millisecondsSince1970: end), now)  // a future end is now
        let earliest = now.addingTimeInterval(-Double(Self.retentionDays(production: production)) * 86_400)
        guard startDate >= earliest else { throw .startDateTooFarInPast }
        notificationType = try Self.string(object["notificationType"])
        notificationSubtype = try Self.string(object["notificationSubtype"])
        transactionId = try Self.string(object["transactionId"])
        if notificationType != nil && transactionId != nil { throw .multipleFiltersSupplied }
        if notificationSubtype != nil && notificationType == nil { throw .invalidNotificationType }
        if let type = notificationType, !Self.knownTypes.contains(type) { throw .invalidNotificationType }
        if let id = transactionId, id.isEmpty || !id.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            throw .invalidTransactionId
        }
        switch object["onlyFailures"] {
        case nil, is NSNull: onlyFailures = false
        case let flag as Bool: onlyFailures = flag
        default: throw .generalBadRequest
        }
        if let token = request.query["paginationToken"] {
            guard let decoded = Data(base64Encoded: token).map({ String(decoding: $0, as: UTF8.self) }),
                  decoded.hasPrefix("offset:"), let value = Int(decoded.dropFirst(7)), value > 0 else {
                throw .invalidPaginationToken
            }
            offset = value
        } else {
            offset = 0
        }
    }

    /// The token of the page after `offset` records.
    static func token(offset: Int) -> String { Data("offset:\(offset)".utf8).base64EncodedString() }

    /// Whether `notification` passes the date, type and failure filters (the transaction filter is the caller's).
    func matches(_ notification: SandboxNotification) -> Bool {
        guard notification.signedDate >= startDate, notification.signedDate <= endDate else { return false }
        if let notificationType, notification.notificationType != notificationType { return false }
        if let notificationSubtype, notification.subtype != notificationSubtype { return false }
        if onlyFailures && notification.status == .delivered { return false }
        return true
    }

    static let knownTypes: Set<String> = [
        "CONSUMPTION_REQUEST", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW",
        "DID_RENEW", "EXPIRED", "EXTERNAL_PURCHASE_TOKEN", "GRACE_PERIOD_EXPIRED", "METADATA_UPDATE", "MIGRATION",
        "OFFER_REDEEMED", "ONE_TIME_CHARGE", "PRICE_CHANGE", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED",
        "REFUND_REVERSED", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION", "RESCIND_CONSENT", "REVOKE", "SUBSCRIBED", "TEST",
    ]

    private static func milliseconds(_ value: Any?) -> Int64? {
        guard let number = value as? NSNumber, !(value is Bool) else { return nil }
        let double = number.doubleValue
        guard double.isFinite, double >= 0, double == double.rounded() else { return nil }
        return number.int64Value
    }

    private static func string(_ value: Any?) throws(AppStoreAPIError) -> String? {
        switch value {
        case nil, is NSNull: return nil
        case let text as String: return text
        default: throw .generalBadRequest
        }
    }
}
