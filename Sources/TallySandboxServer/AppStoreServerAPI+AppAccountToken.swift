import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP
import TallySandbox

extension AppStoreServerAPI {
    /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken` with
    /// `{"appAccountToken": "<UUID>"}`: sets or replaces the token (§4.10), 200 with no body. 400 `4000006` for
    /// an id that is no transaction id, `4000183` for a token that is no UUID, `4000187` for a transaction that
    /// is not an original one, `4000185` for a family-shared one; 404 `4040005` for an unknown one; a body
    /// without the field is Apple's 400 with no code.
    func setAppAccountToken(_ id: String, request: HTTPRequest, token: ServerAPIToken) throws -> HTTPResponse {
        let body = try APIRequestBody(request)
        guard body.has("appAccountToken") else { throw AppStoreAPIError.malformedRequest }
        let text = try body.string("appAccountToken", or: .invalidAppAccountTokenUUID)
        guard let uuid = UUID(uuidString: text) else { throw AppStoreAPIError.invalidAppAccountTokenUUID }
        let (_, account, transaction) = try original(id, token: token, invalid: .invalidTransactionId)
        guard transaction.originalTransactionId == id else { throw AppStoreAPIError.notOriginalTransactionId }
        guard transaction.inAppOwnershipType != .familyShared else { throw AppStoreAPIError.familyTransactionNotSupported }
        try change(account: account) { sandbox in
            _ = try sandbox.setAppAccountToken(originalTransactionId: id, token: uuid.uuidString.lowercased())
        }
        return Self.empty(200)
    }
}
