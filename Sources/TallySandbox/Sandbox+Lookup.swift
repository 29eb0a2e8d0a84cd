import TallyCore

extension Sandbox {
    /// The account that made the transaction `transactionId` (any transaction of a chain, the original one
    /// included); nil for an id this sandbox never issued.
    public func account(ofTransaction transactionId: String) -> String? {
        transactionAccounts[transactionId]
    }

    /// The app's bundle id (`tally.json`'s), which signed data and the App Store Server API name.
    public var bundleId: String { configuration.bundleId }
}
