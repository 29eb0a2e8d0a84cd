import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP
import TallySandbox

extension AppStoreServerAPI {
    /// Transactions per history page, as Apple sends.
    static let historyPageSize = 20

    /// `GET /inApps/v{1,2}/history/{anyTransactionId}`: the account's transactions in order of their last change
    /// (`sort`, oldest first by default), 20 a page, `hasMore` and a `revision` to continue from — the final
    /// revision also fetches only what changed later. V1 leaves out consumables finished on every device
    /// (unless revoked), as Apple's V1 does.
    func history(_ id: String, request: HTTPRequest, token: ServerAPIToken, version: Int) throws -> HTTPResponse {
        let query = try HistoryQuery(request)
        let (sandbox, account) = try customer(of: id, token: token)
        var transactions = sandbox.transactions(account: account).filter(query.matches)
        if version == 1 {
            let unfinished = Set(sandbox.devices(account: account).flatMap { device in
                sandbox.unfinished(account: account, device: device).map(\.transactionId)
            })
            transactions.removeAll { $0.type == .consumable && !$0.isRevoked && !unfinished.contains($0.transactionId) }
        }
        var ordered = transactions.map { (HistoryQuery.Revision($0), $0) }.sorted { $0.0 < $1.0 }
        if query.descending { ordered.reverse() }
        if let revision = query.revision {
            ordered.removeAll { query.descending ? !($0.0 < revision) : !(revision < $0.0) }
        }
        let page = ordered.prefix(Self.historyPageSize)
        let next = page.last?.0 ?? query.revision ?? HistoryQuery.Revision(modified: 0, transactionId: "")
        var object = appFields(sandbox)
        object["revision"] = next.token
        object["hasMore"] = ordered.count > page.count
        object["signedTransactions"] = try page.map { try signer.signTransaction($0.1) }
        return try Self.json(object)
    }

    /// `GET /inApps/v1/subscriptions/{anyTransactionId}[?status=…]`: per subscription group, the latest
    /// transaction and renewal info of each chain with its status now (1 active, 2 expired, 3 billing retry,
    /// 4 grace period, 5 revoked).
    func subscriptionStatuses(_ id: String, request: HTTPRequest, token: ServerAPIToken) throws -> HTTPResponse {
        var wanted: Set<Int> = []
        for text in request.queryValues("status") {
            guard let value = Int(text), (1...5).contains(value) else { throw AppStoreAPIError.invalidStatus }
            wanted.insert(value)
        }
        let (sandbox, account) = try customer(of: id, token: token)
        let transactions = sandbox.transactions(account: account)
        let renewals = sandbox.renewalInfos(account: account)
        var groups: [[String: Any]] = []
        for subscription in sandbox.state(account: account).subscriptions {
            let status = Self.statusCode(subscription.status)
            guard wanted.isEmpty || wanted.contains(status) else { continue }
            let chain = transactions.filter { $0.originalTransactionId == subscription.originalTransactionId }
            guard let latest = chain.max(by: { $0.purchaseDate < $1.purchaseDate }) else { continue }
            var item: [String: Any] = [
                "status": status, "originalTransactionId": subscription.originalTransactionId,
                "signedTransactionInfo": try signer.signTransaction(latest),
            ]
            if let info = renewals.first(where: { $0.originalTransactionId == subscription.originalTransactionId }) {
                item["signedRenewalInfo"] = try signer.signRenewalInfo(info)
            }
            groups.append(["subscriptionGroupIdentifier": subscription.groupId, "lastTransactions": [item]])
        }
        var object = appFields(sandbox)
        object["data"] = groups
        return try Self.json(object)
    }

    /// Apple's status number for a subscription state.
    static func statusCode(_ status: SubscriptionState) -> Int {
        switch status {
        case .subscribed: 1
        case .expired: 2
        case .inBillingRetry: 3
        case .inGracePeriod: 4
        case .revoked: 5
        }
    }
}
