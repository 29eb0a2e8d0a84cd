import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// `POST /v1/customers/{appUserId}/account-token`: the customer's minted `appAccountToken`, minted on the first
    /// call and the same one after. The route's authorization has checked that the caller speaks for the
    /// customer: the secret key, or the public key with a valid customer token for this very customer (even when
    /// `customers.requireToken` is off), or an anonymous id.
    func accountToken(_ appUserId: String) throws(APIError) -> HTTPResponse {
        let token = try storeCall { () throws(CustomerStoreError) in
            if let minted = try store.accountToken(of: appUserId) { return minted }
            return try store.mintAccountToken(for: appUserId, candidate: AccountToken.mint())
        }
        return APIResponse.json(JSONWriter.object { writer in writer.field("appAccountToken", token) })
    }
}
