import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP
import TallySandbox

extension AppStoreServerAPI {
    /// `GET /inApps/v1/lookup/{orderId}`: `{"status": 0, "signedTransactions": […]}` for an order of this app,
    /// `{"status": 1}` (200, no array) for any other order id; 400 `4000000` for one that is no order id
    /// (../shared/docs/app-store-server-api.md §4.4). Apple serves it in production only; the sandbox serves it
    /// in whichever environment it plays, so a server's handling can be tested.
    func lookUpOrderId(_ orderId: String, token: ServerAPIToken) throws -> HTTPResponse {
        guard SandboxOrderId.isWellFormed(orderId) else { throw AppStoreAPIError.generalBadRequest }
        let sandbox = try sandboxDirectory.load()
        let transactions = token.bundleId == sandbox.bundleId ? sandbox.transactions(orderId: orderId) : []
        guard !transactions.isEmpty else { return try Self.json(["status": 1]) }
        return try Self.json(["status": 0, "signedTransactions": try transactions.map { try signer.signTransaction($0) }])
    }

    /// `GET /inApps/v2/refund/lookup/{anyTransactionId}[?revision=…]`: the account's refunded transactions in
    /// order of `revocationDate` (then transaction id), 20 a page, `hasMore`, and a `revision` in every answer
    /// to continue from — the final one fetches only refunds made later (§4.5).
    func refundHistory(_ id: String, request: HTTPRequest, token: ServerAPIToken) throws -> HTTPResponse {
        var after: HistoryQuery.Revision?
        if let text = request.queryValues("revision").last {
            guard let revision = HistoryQuery.Revision(token: text) else { throw AppStoreAPIError.invalidRevision }
            after = revision
        }
        let (sandbox, account) = try customer(of: id, token: token)
        var refunds = sandbox.transactions(account: account).compactMap { transaction in
            transaction.revocationDate.map {
                (HistoryQuery.Revision(modified: $0.millisecondsSince1970, transactionId: transaction.transactionId), transaction)
            }
        }.sorted { $0.0 < $1.0 }
        if let after { refunds.removeAll { !(after < $0.0) } }
        let page = refunds.prefix(Self.historyPageSize)
        let next = page.last?.0 ?? after ?? HistoryQuery.Revision(modified: 0, transactionId: "")
        return try Self.json([
            "signedTransactions": try page.map { try signer.signTransaction($0.1) },
            "hasMore": refunds.count > page.count,
            "revision": next.token,
        ])
    }
}
