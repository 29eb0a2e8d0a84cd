/// Whether and how the server answers `CONSUMPTION_REQUEST` notifications with Send Consumption Information
/// (`appStoreServerAPI.consumptionInformation` in `tally-server.json`). Apple accepts the information only
/// with the customer's consent, so the object exists only when the operator states that consent
/// (`customerConsented: true`, for instance because the app's terms ask for it); without it nothing is sent.
public struct ConsumptionSettings: Sendable, Hashable {
    /// `sampleContentProvided`: whether the app gives a free sample or trial before purchase.
    public var sampleContentProvided: Bool
    /// `refundPreference` sent with every answer: `DECLINE`, `GRANT_FULL` or `GRANT_PRORATED`; nil: none.
    public var refundPreference: String?
    /// Which Send Consumption Information the server calls: 2 (`ConsumptionRequest`, the default; Apple's
    /// current endpoint) or 1 (`ConsumptionRequestV1`, with account tenure and lifetime-dollar bands).
    public var version: Int

    /// Apple's `refundPreference` values.
    public static let refundPreferences = ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]

    /// Creates settings.
    public init(sampleContentProvided: Bool = false, refundPreference: String? = nil, version: Int = 2) {
        self.sampleContentProvided = sampleContentProvided
        self.refundPreference = refundPreference
        self.version = version
    }
}
