import Foundation
import TallyCore


extension Store {
    /// The `appAccountToken` a purchase of the link's customer carries: the link's own
    /// (``ServerLink/appAccountToken``), else the one the server minted for the customer — asked with
    /// `POST …/account-token` once, then kept in `account-tokens.json`; nil without a link, and when the server
    /// cannot hand one now (unreachable, or no proof that this app speaks for the customer: a server hands a token
    /// only with a customer token, the secret key, or to an anonymous id). Never a token derived from the appUserId.
    func purchaseAccountToken() async -> UUID? {
        guard let link = serverLink, let server else { return nil }
        if let own = link.appAccountToken { return own }
        if let minted = mintedAccountToken { return minted }
        let customerId = link.appUserId
        guard !isClosed, case .success(let minted) = await server.accountToken(),
              isCurrentCustomer(customerId) else { return nil }
        mintedAccountToken = minted
        var saved = SavedAccountTokens.read(in: directory)
        saved.set(minted, server: link.url, appUserId: customerId)
        do { try saved.write(in: directory) } catch {
            report(StoreDiagnostic(.savedServerStateUnusable, "the server's account token could not be saved "
                + "(\(error.message)); it is asked again at the next launch"))
        }
        return minted
    }

    /// The token of the link's customer known without asking: the link's own, else the minted one kept.
    var knownAccountToken: UUID? {
        serverLink?.appAccountToken ?? mintedAccountToken
    }

    /// Reads the minted token kept for the link's customer (at launch, and after a switch).
    func loadMintedAccountToken() {
        mintedAccountToken = serverLink.flatMap {
            SavedAccountTokens.read(in: directory).token(server: $0.url, appUserId: $0.appUserId)
        }
    }
}
