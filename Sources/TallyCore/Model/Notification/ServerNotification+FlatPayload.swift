import Foundation

extension ServerNotification {
    /// Decodes Apple's `responseBodyV2DecodedPayload` JSON in one pass, without Foundation's `JSONDecoder`, when it
    /// has the shape of the notifications about a transaction that Apple signs: only the keys Tally models, every
    /// value a scalar but `data`, a flat object of only the keys ``NotificationData`` models. nil for any other
    /// document (`summary`, `appData`, `externalPurchaseToken`, an unknown key, an escape, a fraction, a repeated key,
    /// a value of another type than its field's); callers then use `JSONDecoder`, which alone says why a document is
    /// refused. The value is the one `init(from:)` decodes from the same bytes.
    public init?(flatPayload bytes: [UInt8]) {
        var fields = FlatNotificationFields()
        let read = bytes.withUnsafeBufferPointer { buffer in
            FlatJSONObject.read(buffer, nested: { key in fields.open(key) }) { parent, key, value in
                parent == nil ? fields.set(key, value) : fields.setData(key, value)
            }
        }
        guard read else { return nil }
        self = fields.notification()
    }
}

/// The members of a flat notification payload as they are read; see ``ServerNotification/init(flatPayload:)``.
private struct FlatNotificationFields {
    private enum Top: Int, CaseIterable {
        case notificationType, subtype, notificationUUID, version, signedDate, data
    }

    private enum DataField: Int, CaseIterable {
        case appAppleId, bundleId, bundleVersion, environment, signedTransactionInfo, signedRenewalInfo, status
        case consumptionRequestReason
    }

    private static let topByName = Dictionary(uniqueKeysWithValues: Top.allCases.map { ("\($0)", $0) })
    private static let dataByName = Dictionary(uniqueKeysWithValues: DataField.allCases.map { ("\($0)", $0) })

    private var seen: UInt32 = 0
    private var seenData: UInt32 = 0
    private var top = [String?](repeating: nil, count: Top.allCases.count)
    private var signedDate: Int64?
    private var hasData = false
    private var data = [String?](repeating: nil, count: DataField.allCases.count)
    private var appAppleId: Int64?
    private var status: Int?

    /// `data`'s object begins; false for any other object (the document goes to `JSONDecoder`).
    mutating func open(_ key: String) -> Bool {
        guard key == "data", mark(.data) else { return false }
        hasData = true
        return true
    }

    /// Takes one top-level scalar member; false when the document must go to `JSONDecoder`.
    mutating func set(_ key: String, _ value: FlatJSONObject.Scalar) -> Bool {
        guard let field = Self.topByName[key], mark(field) else { return false }
        switch (field, value) {
        case (_, .null): return true  // absent, as `decodeIfPresent` reads `null`
        case (.signedDate, .integer(let milliseconds)): signedDate = milliseconds
        case (.signedDate, _), (.data, _): return false
        case (_, .string(let text)): top[field.rawValue] = text
        default: return false
        }
        return true
    }

    /// Takes one member of `data`; false when the document must go to `JSONDecoder`.
    mutating func setData(_ key: String, _ value: FlatJSONObject.Scalar) -> Bool {
        guard let field = Self.dataByName[key] else { return false }
        let bit: UInt32 = 1 << UInt32(field.rawValue)
        guard seenData & bit == 0 else { return false }
        seenData |= bit
        switch (field, value) {
        case (_, .null): return true
        case (.appAppleId, .integer(let number)): appAppleId = number
        case (.status, .integer(let number)):
            guard let fits = Int(exactly: number) else { return false }
            status = fits
        case (.appAppleId, _), (.status, _): return false
        case (_, .string(let text)): data[field.rawValue] = text
        default: return false
        }
        return true
    }

    private mutating func mark(_ field: Top) -> Bool {
        let bit: UInt32 = 1 << UInt32(field.rawValue)
        guard seen & bit == 0 else { return false }
        seen |= bit
        return true
    }

    func notification() -> ServerNotification {
        ServerNotification(
            notificationType: top[Top.notificationType.rawValue].map(NotificationType.init(rawValue:)),
            subtype: top[Top.subtype.rawValue].map(NotificationSubtype.init(rawValue:)),
            notificationUUID: top[Top.notificationUUID.rawValue],
            version: top[Top.version.rawValue],
            signedDate: signedDate.map(Date.init(millisecondsSince1970:)),
            data: hasData ? NotificationData(
                appAppleId: appAppleId, bundleId: data[DataField.bundleId.rawValue],
                bundleVersion: data[DataField.bundleVersion.rawValue],
                environment: data[DataField.environment.rawValue].map(StoreEnvironment.init(rawValue:)),
                signedTransactionInfo: data[DataField.signedTransactionInfo.rawValue],
                signedRenewalInfo: data[DataField.signedRenewalInfo.rawValue], status: status,
                consumptionRequestReason: data[DataField.consumptionRequestReason.rawValue]) : nil)
    }
}
