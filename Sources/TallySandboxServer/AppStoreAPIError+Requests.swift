extension AppStoreAPIError {
    /// A body that is not a JSON object of the endpoint's shape: Apple's 400 "with no error code".
    static let malformedRequest = AppStoreAPIError(status: 400, code: nil, message: "Bad Request")
    static let invalidOriginalTransactionId = AppStoreAPIError(status: 400, code: 4_000_008, message: "Invalid original transaction id.")
    static let invalidExtendByDays = AppStoreAPIError(status: 400, code: 4_000_009, message: "Invalid extend by days value.")
    static let invalidExtendReasonCode = AppStoreAPIError(status: 400, code: 4_000_010, message: "Invalid extend reason code.")
    static let invalidRequestIdentifier = AppStoreAPIError(status: 400, code: 4_000_011, message: "Invalid request identifier.")
    static let invalidProductId = AppStoreAPIError(status: 400, code: 4_000_023, message: "Invalid request. The product id parameter is invalid.")
    static let invalidEmptyStorefrontCountryCodeList = AppStoreAPIError(status: 400, code: 4_000_027, message:
        "Invalid request. If provided, the list of storefront country codes must not be empty.")
    static let invalidStorefrontCountryCode = AppStoreAPIError(status: 400, code: 4_000_028, message:
        "Invalid request. A storefront country code was invalid.")
    /// One of the ConsumptionRequestV1 fields 4000032–4000042 (`field` as Apple's message names it).
    static func invalidConsumptionField(_ code: Int, _ field: String) -> AppStoreAPIError {
        AppStoreAPIError(status: 400, code: code, message: "Invalid request. The \(field) field is invalid.")
    }
    static let invalidAppAccountToken = AppStoreAPIError(status: 400, code: 4_000_033, message:
        "Invalid request. The app account token field must contain a valid UUID or an empty string.")
    static let invalidCustomerConsented = AppStoreAPIError(status: 400, code: 4_000_035, message:
        "Invalid request. The customer consented field is required and must indicate the customer consented.")
    static let invalidRefundPreference = AppStoreAPIError(status: 400, code: 4_000_044, message:
        "Invalid request. The refund preference field is invalid.")
    static let transactionTypeNotSupported = AppStoreAPIError(status: 400, code: 4_000_047, message:
        "Invalid request. The transaction id doesn't represent a supported in-app purchase type.")
    static let invalidAppAccountTokenUUID = AppStoreAPIError(status: 400, code: 4_000_183, message:
        "Invalid request. The app account token field must be a valid UUID.")
    static let familyTransactionNotSupported = AppStoreAPIError(status: 400, code: 4_000_185, message:
        "Invalid request. Family Sharing transactions aren't supported by this endpoint.")
    static let notOriginalTransactionId = AppStoreAPIError(status: 400, code: 4_000_187, message:
        "Invalid request. The transaction ID provided is not an original transaction ID.")
    static let consumptionPercentageAutoRenewable = AppStoreAPIError(status: 400, code: 4_000_209, message:
        "Invalid request. The consumption percentage field is not supported for auto-renewable subscription transactions.")
    static let subscriptionExtensionIneligible = AppStoreAPIError(status: 403, code: 4_030_004, message:
        "Forbidden - subscription state ineligible for extension.")
    static let subscriptionMaxExtension = AppStoreAPIError(status: 403, code: 4_030_005, message:
        "Forbidden - subscription has reached maximum extension count.")
    static let familySharedSubscriptionExtensionIneligible = AppStoreAPIError(status: 403, code: 4_030_007, message:
        "Subscriptions that users obtain through Family Sharing can't get a renewal date extension directly.")
    static let originalTransactionIdNotFound = AppStoreAPIError(status: 404, code: 4_040_005, message:
        "Original transaction id not found.")
    static let statusRequestNotFound = AppStoreAPIError(status: 404, code: 4_040_009, message:
        "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination.")
}
