import Foundation

/// A customer's request to Apple for a refund of one transaction (`tally sandbox refund-request TX`): Apple
/// asks the app's server for consumption data (CONSUMPTION_REQUEST), then grants it (REFUND) or declines it
/// (REFUND_DECLINED).
public struct SandboxRefundRequest: Sendable, Codable, Hashable {
    /// How a request ends.
    public enum Decision: String, Sendable, Codable, Hashable, CaseIterable {
        /// Refunded (REFUND).
        case approve
        /// Declined (REFUND_DECLINED).
        case decline
    }

    /// The transaction whose refund was asked.
    public var transactionId: String
    /// Apple's `consumptionRequestReason`: UNINTENDED_PURCHASE, FULFILLMENT_ISSUE, UNSATISFIED_WITH_PURCHASE,
    /// LEGAL or OTHER.
    public var reason: String
    /// Sandbox time of the request.
    public var requestDate: Date
    /// How it ended; nil while open.
    public var decision: Decision?
    /// When it ended.
    public var decidedDate: Date?
    /// Whether the decision came from the consumption information (no explicit `--decide`).
    public var decidedByConsumptionInfo: Bool?

    /// The reasons Apple names in `consumptionRequestReason`.
    public static let reasons = ["UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER"]

    /// Creates an open request.
    public init(transactionId: String, reason: String, requestDate: Date) {
        self.transactionId = transactionId
        self.reason = reason
        self.requestDate = requestDate
    }
}
