import Foundation
import TallyHTTP

/// An error of the App Store Server API, in Apple's shape: `{"errorCode": 4040010, "errorMessage": "…"}` with
/// Apple's HTTP status (../shared/docs/app-store-server-api.md §3.2); 401 is Apple's plain `Unauthenticated`.
struct AppStoreAPIError: Error, Sendable, Hashable {
    /// The HTTP status.
    var status: Int
    /// Apple's error code; nil for the 401, which has no JSON body.
    var code: Int?
    /// Apple's `errorMessage`.
    var message: String
    /// Extra header fields (`Retry-After` on a 429).
    var headers: [HTTPResponse.Field] = []

    static let generalBadRequest = AppStoreAPIError(status: 400, code: 4_000_000, message: "Bad request.")
    static let invalidAppIdentifier = AppStoreAPIError(status: 400, code: 4_000_002, message: "Invalid request app identifier.")
    static let invalidRevision = AppStoreAPIError(status: 400, code: 4_000_005, message: "Invalid request revision.")
    static let invalidTransactionId = AppStoreAPIError(status: 400, code: 4_000_006, message: "Invalid transaction id.")
    static let startDateAfterEndDate = AppStoreAPIError(status: 400, code: 4_000_013, message:
        "Invalid request. The end date precedes the start date or the dates are the same.")
    static let invalidStartDate = AppStoreAPIError(status: 400, code: 4_000_015, message:
        "Invalid request. The start date is not a timestamp value represented in milliseconds.")
    static let invalidEndDate = AppStoreAPIError(status: 400, code: 4_000_016, message:
        "Invalid request. The end date is not a timestamp value represented in milliseconds.")
    static let invalidSort = AppStoreAPIError(status: 400, code: 4_000_021, message: "Invalid request. The sort parameter is invalid.")
    static let invalidProductType = AppStoreAPIError(status: 400, code: 4_000_022, message:
        "Invalid request. The product type parameter is invalid.")
    static let invalidInAppOwnershipType = AppStoreAPIError(status: 400, code: 4_000_026, message:
        "Invalid request. The in-app ownership type parameter is invalid.")
    static let invalidRevoked = AppStoreAPIError(status: 400, code: 4_000_030, message:
        "Invalid request. The revoked parameter is invalid.")
    static let invalidStatus = AppStoreAPIError(status: 400, code: 4_000_031, message:
        "Invalid request. The status parameter is invalid.")
    static let transactionIdNotFound = AppStoreAPIError(status: 404, code: 4_040_010, message: "Transaction id not found.")
    static let generalInternal = AppStoreAPIError(status: 500, code: 5_000_000, message: "An unknown error occurred.")
    static let unauthenticated = AppStoreAPIError(status: 401, code: nil, message: "Unauthenticated")
    static let notFound = AppStoreAPIError(status: 404, code: nil, message: "Not Found")

    /// 429 `RateLimitExceededError`; `Retry-After` is the UNIX time in milliseconds of the next allowed request.
    static func rateLimitExceeded(retryAt: Date) -> AppStoreAPIError {
        AppStoreAPIError(status: 429, code: 4_290_000, message: "Rate limit exceeded.",
                         headers: [HTTPResponse.Field("Retry-After", String(Int64((retryAt.timeIntervalSince1970 * 1_000).rounded(.up))))])
    }

    /// The response Apple sends for it.
    var response: HTTPResponse {
        guard let code else {
            return HTTPResponse(status: status, headers: [HTTPResponse.Field("Content-Type", "text/plain")] + headers,
                                body: Array(message.utf8))
        }
        let body = (try? JSONSerialization.data(withJSONObject: ["errorCode": code, "errorMessage": message],
                                                options: [.sortedKeys])) ?? Data()
        return HTTPResponse(status: status, headers: [HTTPResponse.Field("Content-Type", "application/json")] + headers,
                            body: Array(body))
    }
}
