import Foundation

/// An App Store Server Notification V2: the decoded `signedPayload`, with the field names of Apple's
/// `responseBodyV2DecodedPayload`. Every field is optional, as in Apple's model; exactly one of
/// ``data``, ``summary``, ``externalPurchaseToken`` and ``appData`` is normally present.
///
/// Named `ServerNotification` rather than `Notification` so it never clashes with Foundation's type.
public struct ServerNotification: Sendable, Hashable, Codable {
    /// What happened.
    public var notificationType: NotificationType?
    /// The refinement of ``notificationType``.
    public var subtype: NotificationSubtype?
    /// Unique per notification; a retry carries the same value.
    public var notificationUUID: String?
    /// Always "2.0".
    public var version: String?
    /// When the App Store signed the notification.
    public var signedDate: Date?
    /// The app and the signed transaction and renewal info the event is about.
    public var data: NotificationData?
    /// The result of a mass renewal-date extension.
    public var summary: NotificationSummary?
    /// An external purchase token (`EXTERNAL_PURCHASE_TOKEN`).
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// The app and its signed app transaction (`RESCIND_CONSENT`).
    public var appData: AppData?
    /// Fields Tally does not model, kept as read.
    public var unknownFields: [String: JSONValue]

    /// Creates a notification.
    public init(
        notificationType: NotificationType? = nil, subtype: NotificationSubtype? = nil,
        notificationUUID: String? = nil, version: String? = "2.0", signedDate: Date? = nil,
        data: NotificationData? = nil, summary: NotificationSummary? = nil,
        externalPurchaseToken: ExternalPurchaseToken? = nil, appData: AppData? = nil,
        unknownFields: [String: JSONValue] = [:]
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.version = version
        self.signedDate = signedDate
        self.data = data
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
        self.appData = appData
        self.unknownFields = unknownFields
    }
}

extension ServerNotification {
    static let knownKeys: Set<String> = [
        "notificationType", "subtype", "notificationUUID", "version", "signedDate", "data", "summary",
        "externalPurchaseToken", "appData",
    ]

    /// Decodes Apple's `responseBodyV2DecodedPayload` JSON.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init(
            notificationType: try c.optional("notificationType"),
            subtype: try c.optional("subtype"),
            notificationUUID: try c.optional("notificationUUID"),
            version: try c.optional("version"),
            signedDate: try c.millis("signedDate"),
            data: try c.optional("data"),
            summary: try c.optional("summary"),
            externalPurchaseToken: try c.optional("externalPurchaseToken"),
            appData: try c.optional("appData"),
            unknownFields: try c.unknown(excluding: Self.knownKeys)
        )
    }

    /// Encodes as Apple's JSON; absent fields are left out.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(notificationType, "notificationType")
        try c.put(subtype, "subtype")
        try c.put(notificationUUID, "notificationUUID")
        try c.put(version, "version")
        try c.putMillis(signedDate, "signedDate")
        try c.put(data, "data")
        try c.put(summary, "summary")
        try c.put(externalPurchaseToken, "externalPurchaseToken")
        try c.put(appData, "appData")
        try c.putUnknown(unknownFields)
    }
}
