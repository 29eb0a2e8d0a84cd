import Foundation

/// The dashboard's read-only queries, each aggregated by the database (docs/server.md, *Dashboard*).
///
/// Separate from ``CustomerStore`` so a store can serve the API before it serves the dashboard:
/// ``SQLiteCustomerStore`` implements both; the API answers 501 `not_implemented` for a store that does not.
public protocol DashboardStore: Sendable {
    /// The overview at `now`: live counts, and per-day sums for the days `days` (UTC, oldest first).
    func dashboardOverview(days: DashboardDays, now: Date) throws(CustomerStoreError) -> DashboardOverview

    /// Customers matching `text`: an `appUserId` starting with it (compared as bytes), or the owner of the chain
    /// (`originalTransactionId`), transaction (`transactionId`) or `appAccountToken` equal to it; at most `limit`.
    func searchCustomers(_ text: String, limit: Int) throws(CustomerStoreError) -> [DashboardCustomerMatch]

    /// The latest transactions across customers (newest purchase first, then the greater transaction id, as bytes)
    /// passing `filter`, after `before` (the position of the previous page's last row) when given; at most `limit`.
    func latestTransactions(_ filter: DashboardTransactionFilter, before: DashboardListPosition?, limit: Int)
        throws(CustomerStoreError) -> [DashboardTransaction]

    /// The latest stored App Store Server Notifications (newest received first), after `before` when given; at
    /// most `limit`.
    func latestNotifications(before: DashboardListPosition?, limit: Int) throws(CustomerStoreError) -> [DashboardNotification]

    /// The transactions bought with an offer (Apple's `offerType` set; newest purchase first, then the greater
    /// transaction id, as bytes), after `before` when given, at most `limit`; with the count of every offer's
    /// redemptions (by `offerType` and `offerIdentifier`, over all of them), in one snapshot.
    func offerRedemptions(before: DashboardListPosition?, limit: Int) throws(CustomerStoreError) -> DashboardOffers
}

extension DashboardStore {
    /// The first page of ``latestTransactions(_:before:limit:)``.
    public func latestTransactions(_ filter: DashboardTransactionFilter, limit: Int) throws(CustomerStoreError)
        -> [DashboardTransaction]
    {
        try latestTransactions(filter, before: nil, limit: limit)
    }

    /// The first page of ``latestNotifications(before:limit:)``.
    public func latestNotifications(limit: Int) throws(CustomerStoreError) -> [DashboardNotification] {
        try latestNotifications(before: nil, limit: limit)
    }
}
