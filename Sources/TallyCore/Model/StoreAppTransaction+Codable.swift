import Foundation

extension StoreAppTransaction {
    static let knownKeys: Set<String> = [
        "receiptType", "appAppleId", "bundleId", "applicationVersion", "versionExternalIdentifier",
        "receiptCreationDate", "originalPurchaseDate", "originalApplicationVersion", "deviceVerification",
        "deviceVerificationNonce", "preorderDate", "appTransactionId", "originalPlatform",
    ]

    /// Decodes Apple's `AppTransaction` JSON.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init(
            receiptType: try c.optional("receiptType"),
            appAppleId: try c.optional("appAppleId"),
            bundleId: try c.optional("bundleId"),
            applicationVersion: try c.optional("applicationVersion"),
            versionExternalIdentifier: try c.optional("versionExternalIdentifier"),
            receiptCreationDate: try c.millis("receiptCreationDate"),
            originalPurchaseDate: try c.millis("originalPurchaseDate"),
            originalApplicationVersion: try c.optional("originalApplicationVersion"),
            deviceVerification: try c.optional("deviceVerification"),
            deviceVerificationNonce: try c.optional("deviceVerificationNonce"),
            preorderDate: try c.millis("preorderDate"),
            appTransactionId: try c.optional("appTransactionId"),
            originalPlatform: try c.optional("originalPlatform"),
            unknownFields: try c.unknown(excluding: Self.knownKeys)
        )
    }

    /// Encodes as Apple's `AppTransaction` JSON; absent fields are left out.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(receiptType, "receiptType")
        try c.put(appAppleId, "appAppleId")
        try c.put(bundleId, "bundleId")
        try c.put(applicationVersion, "applicationVersion")
        try c.put(versionExternalIdentifier, "versionExternalIdentifier")
        try c.putMillis(receiptCreationDate, "receiptCreationDate")
        try c.putMillis(originalPurchaseDate, "originalPurchaseDate")
        try c.put(originalApplicationVersion, "originalApplicationVersion")
        try c.put(deviceVerification, "deviceVerification")
        try c.put(deviceVerificationNonce, "deviceVerificationNonce")
        try c.putMillis(preorderDate, "preorderDate")
        try c.put(appTransactionId, "appTransactionId")
        try c.put(originalPlatform, "originalPlatform")
        try c.putUnknown(unknownFields)
    }
}
