import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP

/// The check behind `customers.requireToken`: a public-key call on a customer-scoped route must carry a valid
/// customer token (header ``headerName``) for that very customer, compared as bytes. A token sent when none is
/// required is still checked: a bad one is refused, so a misconfigured app finds out before it matters.
struct CustomerTokenCheck: Sendable {
    /// The request header the token travels in.
    static let headerName = "Tally-Customer-Token"

    let settings: CustomerSettings
    /// The wall clock: tokens are issued by the app's backend in real time, whatever clock the rules read.
    let now: @Sendable () -> Date

    init(settings: CustomerSettings, now: @escaping @Sendable () -> Date = { Date() }) {
        self.settings = settings
        self.now = now
    }

    /// Nil when the request may go on; else the error to answer. `required` asks for a token even when
    /// `requireToken` is off (the account-token route: a token is handed only to a caller who proves it speaks
    /// for the customer); an anonymous id needs none either way.
    func refusal(_ request: HTTPRequest, appUserId: String, required: Bool = false) -> APIError? {
        let required = required || settings.requireToken
        guard let token = request.header(Self.headerName) else {
            guard required, !AnonymousCustomerId.isAnonymous(appUserId) else { return nil }
            return .customerTokenRequired
        }
        guard !settings.tokenKeys.isEmpty else {
            return required ? .customerTokenRequired : nil
        }
        switch CustomerToken.verify(token, audience: settings.audience, at: now(), keys: settings.tokenKeys,
                                    maximumLifetime: TimeInterval(settings.maximumTokenSeconds)) {
        case .failure(let failure):
            return .invalidCustomerToken(failure)
        case .success(let claims):
            guard claims.appUserId.utf8.elementsEqual(appUserId.utf8) else { return .customerTokenMismatch }
            return nil
        }
    }
}

extension APIError {
    /// 401: the route needs a customer token and none came.
    static let customerTokenRequired = APIError(
        401, "customer_token_required", "this server requires a customer token for this customer: send the token "
            + "your app's backend issued in '\(CustomerTokenCheck.headerName)' (docs/server.md, Customer tokens)",
        headers: [HTTPResponse.Field("WWW-Authenticate", #"Bearer realm="tally", error="invalid_token""#)])

    /// 401: the customer token does not verify, has expired, or is for another audience.
    static func invalidCustomerToken(_ failure: CustomerTokenFailure) -> APIError {
        APIError(401, "invalid_customer_token", "the customer token is refused (\(failure.reason.rawValue)): "
                    + failure.message,
                 headers: [HTTPResponse.Field("WWW-Authenticate", #"Bearer realm="tally", error="invalid_token""#)])
    }

    /// 403: a valid customer token, for another customer.
    static let customerTokenMismatch = APIError(
        403, "customer_token_mismatch", "the customer token speaks for another customer than the one in the path")
}
