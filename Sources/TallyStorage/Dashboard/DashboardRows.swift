import Foundation

/// One customer a dashboard search found, and how.
public struct DashboardCustomerMatch: Sendable, Hashable {
    /// What matched: `appUserId` (a prefix), `originalTransactionId`, `transactionId` or `appAccountToken`.
    public var matchedBy: String
    /// The customer.
    public var appUserId: String

    /// Creates a match.
    public init(matchedBy: String, appUserId: String) {
        self.matchedBy = matchedBy
        self.appUserId = appUserId
    }
}

/// Which transactions ``DashboardStore/latestTransactions(_:before:limit:)`` lists; nil fields do not filter.
public struct DashboardTransactionFilter: Sendable, Hashable {
    /// Only this product (compared as bytes).
    public var productId: String?
    /// Only this type (`Auto-Renewable Subscription`, `Consumable`, …).
    public var type: String?
    /// Only refunded (revoked) ones, or only those not refunded.
    public var refunded: Bool?

    /// Creates a filter.
    public init(productId: String? = nil, type: String? = nil, refunded: Bool? = nil) {
        self.productId = productId
        self.type = type
        self.refunded = refunded
    }
}

/// One transaction in the dashboard's list.
public struct DashboardTransaction: Sendable, Hashable {
    /// The owner now.
    public var appUserId: String
    /// Apple's fields.
    public var transactionId: String, originalTransactionId: String, productId: String, type: String
    /// When it was bought.
    public var purchaseDate: Date
    /// When it expires (subscriptions).
    public var expiresDate: Date?
    /// When it was refunded or revoked.
    public var revocationDate: Date?
    /// `price` in milliunits of `currency`.
    public var price: Int64?
    /// ISO 4217.
    public var currency: String?
    /// Apple's `offerType` (1 introductory, 2 promotional, 3 offer code, 4 win-back).
    public var offerType: Int?
    /// Its place in the list: the stored purchase milliseconds and the transaction id.
    public var position: DashboardListPosition

    /// Creates a row.
    public init(appUserId: String, transactionId: String, originalTransactionId: String, productId: String,
                type: String, purchaseDate: Date, expiresDate: Date? = nil, revocationDate: Date? = nil,
                price: Int64? = nil, currency: String? = nil, offerType: Int? = nil, position: DashboardListPosition) {
        self.position = position
        self.appUserId = appUserId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.type = type
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.price = price
        self.currency = currency
        self.offerType = offerType
    }
}

/// One notification in the dashboard's list.
public struct DashboardNotification: Sendable, Hashable {
    /// Apple's fields.
    public var notificationUUID: String, notificationType: String
    /// Apple's subtype, when any.
    public var subtype: String?
    /// Apple's `signedDate`.
    public var signedDate: Date
    /// When this server received it.
    public var receivedDate: Date
    /// The customer it applied to; nil while it waits for its chain's owner.
    public var appUserId: String?
    /// Its chain, when it names one.
    public var originalTransactionId: String?
    /// `applied`, `pending`, `recorded`, `unchanged`…, as stored.
    public var result: String
    /// Its place in the list: the stored sequence.
    public var position: DashboardListPosition

    /// Creates a row.
    public init(notificationUUID: String, notificationType: String, subtype: String?, signedDate: Date,
                receivedDate: Date, appUserId: String?, originalTransactionId: String?, result: String,
                position: DashboardListPosition) {
        self.position = position
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedDate = signedDate
        self.receivedDate = receivedDate
        self.appUserId = appUserId
        self.originalTransactionId = originalTransactionId
        self.result = result
    }
}
