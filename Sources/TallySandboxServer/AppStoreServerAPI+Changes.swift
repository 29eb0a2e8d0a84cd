import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP
import TallySandbox

/// What the endpoints that change the sandbox share: finding an original transaction, saving a change, and
/// Apple's answers for them.
extension AppStoreServerAPI {
    /// The account and current record of `originalTransactionId` for a token of this app, for the endpoints
    /// that take an original transaction id: 404 `4040005` when this app's sandbox never issued it.
    func original(_ originalTransactionId: String, token: ServerAPIToken,
                  invalid: AppStoreAPIError) throws -> (sandbox: Sandbox, account: String, transaction: StoreTransaction) {
        guard !originalTransactionId.isEmpty, originalTransactionId.utf8.count <= 64,
              originalTransactionId.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw invalid
        }
        guard let account = try store.account(ofTransaction: originalTransactionId) else {
            throw AppStoreAPIError.originalTransactionIdNotFound
        }
        let sandbox = try store.read(account: account)
        guard token.bundleId == sandbox.bundleId,
              let transaction = sandbox.transactions(account: account).first(where: { $0.transactionId.hasSameBytes(as: originalTransactionId) })
        else { throw AppStoreAPIError.originalTransactionIdNotFound }
        return (sandbox, account, transaction)
    }

    /// A 200 or 202 with no body.
    static func empty(_ status: Int) -> HTTPResponse {
        HTTPResponse(status: status, headers: [], body: [])
    }

    /// Runs a change on one account, Apple's 500 for a failure to save it.
    func change<T>(account: String?, _ body: (inout Sandbox) throws -> T) throws -> T {
        do {
            if let account { return try sandboxDirectory.update(accounts: [account], body) }
            return try sandboxDirectory.update(body)
        } catch let error as AppStoreAPIError {
            throw error
        } catch let error as SandboxError {
            throw Self.apiError(error)
        }
    }

    /// Apple's error for a refusal by the sandbox.
    static func apiError(_ error: SandboxError) -> AppStoreAPIError {
        switch error.code {
        case .extensionIneligible: .subscriptionExtensionIneligible
        case .extensionLimitReached: .subscriptionMaxExtension
        case .unknownTransaction: .transactionIdNotFound
        default: .generalInternal
        }
    }
}
