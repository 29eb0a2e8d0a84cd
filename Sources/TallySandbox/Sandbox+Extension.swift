import Foundation
import TallyCore

extension Sandbox {
    /// How many renewal-date extensions one subscription may have within 365 days.
    public static let extensionsPerYear = 2

    /// Extends the renewal date of the subscription whose original transaction is `originalTransactionId` by
    /// `days`: the latest transaction's `expiresDate` and the renewal info's `renewalDate` move (both re-signed
    /// now), and a `renewalExtended` event (RENEWAL_EXTENDED). Resending a `requestIdentifier` already used on
    /// this subscription answers the same extension again and changes nothing. Refused, as Apple refuses it, for
    /// a subscription not active (expired, revoked, in billing retry or grace), in a free trial, or extended
    /// twice within 365 days.
    public mutating func extendRenewalDate(originalTransactionId: String, days: Int, reasonCode: Int,
                                           requestIdentifier: String) throws(SandboxError) -> SandboxRenewalExtension {
        guard let account = transactionAccounts[originalTransactionId],
              let (group, chain) = accounts[account]?.chains.first(where: { $0.value.originalTransactionId == originalTransactionId })
        else {
            throw SandboxError(.unknownTransaction, "no subscription with original transaction '\(originalTransactionId)' in this sandbox")
        }
        if let done = chain.extensions?.first(where: { $0.requestIdentifier == requestIdentifier }) { return done }
        guard chain.phase == .active, chain.expiresDate > now,
              var latest = accounts[account]?.transaction(chain.latestTransactionId),
              latest.offerDiscountType != .freeTrial else {
            throw SandboxError(.extensionIneligible, "subscription \(originalTransactionId) is not in a paid period now: Apple extends only active subscriptions outside free trials")
        }
        let yearAgo = now.addingTimeInterval(-365 * 86_400)
        guard (chain.extensions ?? []).filter({ $0.date > yearAgo }).count < Self.extensionsPerYear else {
            throw SandboxError(.extensionLimitReached, "subscription \(originalTransactionId) was extended \(Self.extensionsPerYear) times within 365 days already")
        }
        let effective = chain.expiresDate.addingTimeInterval(TimeInterval(days) * 86_400)
        latest.expiresDate = effective
        latest.resign(at: now)
        let record = SandboxRenewalExtension(requestIdentifier: requestIdentifier, date: now, days: days,
                                             reasonCode: reasonCode, effectiveDate: effective,
                                             webOrderLineItemId: latest.webOrderLineItemId,
                                             originalTransactionId: originalTransactionId)
        let updated = latest
        let now = self.now
        withAccount(account) { account in
            account.replace(updated)
            account.chains[group]?.expiresDate = effective
            account.chains[group]?.renewalInfo.renewalDate = effective
            account.chains[group]?.renewalInfo.resign(at: now)
            account.chains[group]?.extensions = (chain.extensions ?? []) + [record]
        }
        log(.renewalExtended, account: account, transaction: updated, detail: "\(days) days, request \(requestIdentifier)")
        return record
    }

    /// Extends every active subscription to `productId` (of the given storefronts; all when nil) by `days`, as
    /// ``extendRenewalDate(originalTransactionId:days:reasonCode:requestIdentifier:)`` does one; a subscription
    /// it cannot extend gets `renewalExtensionFailed` (RENEWAL_EXTENSION / FAILURE), and the end a
    /// `renewalExtensionSummary` (RENEWAL_EXTENSION / SUMMARY). Complete at once. A `requestIdentifier` already
    /// used answers its request again.
    public mutating func massExtendRenewalDate(productId: String, days: Int, reasonCode: Int, requestIdentifier: String,
                                               storefrontCountryCodes: [String]?) -> SandboxMassExtension {
        if let done = massExtensions.first(where: { $0.requestIdentifier == requestIdentifier }) { return done }
        var request = SandboxMassExtension(requestIdentifier: requestIdentifier, productId: productId, days: days,
                                           reasonCode: reasonCode, storefrontCountryCodes: storefrontCountryCodes,
                                           requestDate: now, completeDate: nil, succeededCount: 0, failedCount: 0)
        for account in accountNames {
            let chains = (accounts[account]?.chains.values.map { $0 } ?? []).sorted { $0.groupId < $1.groupId }
            for chain in chains where chain.productId == productId && chain.phase != .expired {
                guard let latest = accounts[account]?.transaction(chain.latestTransactionId) else { continue }
                if let storefrontCountryCodes, !storefrontCountryCodes.contains(latest.storefront ?? "") { continue }
                do {
                    _ = try extendRenewalDate(originalTransactionId: chain.originalTransactionId, days: days,
                                              reasonCode: reasonCode, requestIdentifier: requestIdentifier)
                    request.succeededCount += 1
                } catch {
                    request.failedCount += 1
                    log(.renewalExtensionFailed, account: account, transaction: latest, detail: requestIdentifier)
                }
            }
        }
        request.completeDate = now
        massExtensions.append(request)
        log(.renewalExtensionSummary, account: "", productId: productId, detail: requestIdentifier)
        return request
    }

    /// The mass extension asked with `requestIdentifier` for `productId`, if any.
    public func massExtension(productId: String, requestIdentifier: String) -> SandboxMassExtension? {
        massExtensions.first { $0.productId == productId && $0.requestIdentifier == requestIdentifier }
    }

    /// The `summary` of the RENEWAL_EXTENSION / SUMMARY notification for a `renewalExtensionSummary` event; nil
    /// for any other event.
    public func notificationSummary(for event: SandboxEvent) -> NotificationSummary? {
        guard event.kind == .renewalExtensionSummary, let id = event.detail,
              let request = massExtensions.first(where: { $0.requestIdentifier == id }) else { return nil }
        return NotificationSummary(environment: environment, appAppleId: nil, bundleId: bundleId,
                                   productId: request.productId, requestIdentifier: request.requestIdentifier,
                                   storefrontCountryCodes: request.storefrontCountryCodes,
                                   succeededCount: Int64(request.succeededCount), failedCount: Int64(request.failedCount))
    }
}
