import Foundation

/// The consumption information an app's server sent for a refund request (Send Consumption Information v1 or
/// v2, ../shared/docs/app-store-server-api.md §4.8), already checked as Apple checks it, with the v1 numbers
/// read in v2's terms so one rule can decide the refund.
public struct SandboxConsumptionInfo: Sendable, Codable, Hashable {
    /// 1 (`ConsumptionRequestV1`) or 2 (`ConsumptionRequest`).
    public var version: Int
    /// Sandbox time it was received.
    public var receivedDate: Date
    /// `deliveryStatus` in v2's names (`DELIVERED`, `UNDELIVERED_QUALITY_ISSUE`, …); v1's numbers mapped to them.
    public var deliveryStatus: String
    /// v2 `consumptionPercentage` in milliunits (0–100000), if sent.
    public var consumptionPercentage: Int?
    /// v1 `consumptionStatus` (0 undeclared, 1 not, 2 partially, 3 fully consumed), if sent.
    public var consumptionStatus: Int?
    /// `refundPreference` in v2's names (`DECLINE`, `GRANT_FULL`, `GRANT_PRORATED`); nil when none was expressed
    /// (v1 0 undeclared and 3 no preference).
    public var refundPreference: String?
    /// The body as received (JSON), for `tally sandbox refund-request`.
    public var body: String

    /// Creates a record.
    public init(version: Int, receivedDate: Date, deliveryStatus: String, consumptionPercentage: Int? = nil,
                consumptionStatus: Int? = nil, refundPreference: String? = nil, body: String) {
        self.version = version
        self.receivedDate = receivedDate
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage
        self.consumptionStatus = consumptionStatus
        self.refundPreference = refundPreference
        self.body = body
    }

    /// What the sandbox decides from this information alone (the rule of ``Sandbox/decideRefund(transactionId:decision:)``;
    /// `GRANT_PRORATED` approves a prorated refund):
    /// a `refundPreference` is followed; else an undelivered purchase is refunded; else one consumed half or more
    /// (v2 `consumptionPercentage` ≥ 50000, v1 `consumptionStatus` 3 fully consumed) is declined; else refunded.
    public var decision: SandboxRefundRequest.Decision {
        switch refundPreference {
        case "DECLINE": return .decline
        case "GRANT_FULL", "GRANT_PRORATED": return .approve
        default: break
        }
        if deliveryStatus != "DELIVERED" { return .approve }
        if let consumptionPercentage, consumptionPercentage >= 50_000 { return .decline }
        if consumptionStatus == 3 { return .decline }
        return .approve
    }
}
