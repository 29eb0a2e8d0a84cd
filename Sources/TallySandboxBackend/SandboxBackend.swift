import Foundation
import Tally
import TallyCore
import TallySandbox

/// The engine's backend over a sandbox kept in a directory: every change reads the store-wide state and this
/// account's records (kept from the last read while nothing changed), acts, and saves what changed in one
/// transaction under the directory's lock, so another process (`tally sandbox approve`, `refund`, `advance`)
/// sees and changes the same store and no change is lost. Its cost follows the account, not the sandbox.
/// Transaction updates and declines are found by watching the store's change counter (one small query per
/// ``pollInterval``) and reading the account only when it moved.
public actor SandboxBackend: StoreBackend {
    let directory: SandboxDirectory
    let store: SandboxStore
    let account: String
    let device: String
    /// Seconds between two looks at the store's change counter.
    let pollInterval: TimeInterval
    /// The sandbox's clock, read from the directory: the engine's "now" is the sandbox's.
    public nonisolated let clock: StoreClock
    /// Signs what this backend delivers and verifies signed forms (see SandboxBackend+Verification.swift).
    let signing: SandboxSigning

    public init(directory: URL, account: String = "default", device: String = "default",
                pollInterval: TimeInterval = 0.2) {
        self.directory = SandboxDirectory(url: directory)
        self.account = account
        self.device = device
        self.pollInterval = pollInterval
        store = SandboxStore(directory: self.directory)
        let sandboxClock = SandboxClock(store: store)
        clock = StoreClock { sandboxClock.now() }
        signing = SandboxSigning(directory: directory)
    }

    public func products(for ids: [String]) async throws -> BackendProducts {
        let response = try answer { sandbox throws(SandboxError) in try sandbox.products(ids: ids) }
        return BackendProducts(products: response.products, invalidProductIds: response.invalidIdentifiers)
    }

    public func purchase(_ request: PurchaseRequest) async throws -> BackendPurchaseResult {
        let offer = request.offer.map(Self.sandboxOffer)
        let keys = offer == nil ? nil : SandboxOfferKeys(directory: directory.url)
        let (result, sandbox) = try change { sandbox in
            (sandbox.purchase(request.productId, account: account, device: device, quantity: request.quantity,
                              appAccountToken: request.appAccountToken?.uuidString.lowercased(), offer: offer,
                              offerKeys: keys), sandbox)
        }
        switch result {
        case .purchased(let transaction): return .purchased(try update(transaction, in: sandbox))
        case .pending(let pending): return .pending(purchaseId: pending.purchaseId)
        case .cancelled: return .cancelled
        case .failed(let error) where error.code == .userCancelled: return .cancelled
        case .failed(let error): throw Self.storeError(error)
        }
    }

    /// The sandbox's answer: the introductory offer once per group, win-back offers for an account that lapsed.
    public func offerEligibility(groupId: String) async throws -> OfferEligibility? {
        let sandbox = try load()
        return OfferEligibility(introductoryOffer: sandbox.isEligibleForIntroOffer(groupId: groupId, account: account),
                                winBackOfferIds: sandbox.eligibleWinBackOfferIds(groupId: groupId, account: account))
    }

    /// The engine's offer as the sandbox's purchase option.
    static func sandboxOffer(_ offer: PurchaseOffer) -> SandboxOffer {
        switch offer {
        case .promotional(let id, .v1(let keyId, let nonce, let signature, let timestamp)):
            .promotional(offerId: id, keyId: keyId, nonce: nonce.uuidString.lowercased(), signature: signature,
                         timestamp: timestamp)
        case .promotional(let id, .jws(let jws)): .promotionalJWS(offerId: id, jws: jws)
        case .winBack(let id): .winBack(offerId: id)
        case .introductoryEligibility(let jws): .introductoryEligibility(jws: jws)
        }
    }

    public func restore() async throws -> [TransactionUpdate] {
        let (restored, sandbox) = try answer { sandbox throws(SandboxError) in
            (try sandbox.restore(account: account, device: device), sandbox)
        }
        return try restored.map { try update($0, in: sandbox) }
    }

    public func unfinished() async throws -> [TransactionUpdate] {
        let sandbox = try load()
        return try sandbox.unfinished(account: account, device: device).map { try update($0, in: sandbox) }
    }

    public func finish(transactionId: String) async throws {
        try change { $0.finish(transactionId: transactionId, account: account, device: device) }
    }

    /// The account's renewal infos, each signed by the sandbox's authority as the App Store's `signedRenewalInfo`.
    public func subscriptionStatuses() async throws -> [SignedRenewalInfo] {
        try load().renewalInfos(account: account).map { info throws(StoreError) in
            SignedRenewalInfo(renewalInfo: info, jwsRepresentation: try signing.sign(info))
        }
    }

    /// False while parental controls are on for the account (`tally sandbox set parental-controls on`), and
    /// when the sandbox cannot be read (no purchase could go through then either).
    public var canMakePayments: Bool {
        get async { (try? load())?.canMakePayments(account: account) ?? false }
    }

    /// The sandbox's storefront (`SandboxSettings/storefront`, the .storekit file's `_storefront`); nil when the
    /// sandbox cannot be read.
    public var storefront: String? {
        get async { (try? load())?.settings.storefront }
    }

    /// The account's Ask to Buy purchases declined in the sandbox (`tally sandbox decline ID`).
    public func declinedPurchases() async throws -> [String] {
        try load().declinedPurchases(account: account)
    }

    /// Declines found by polling the directory, each id once.
    public nonisolated func purchaseDeclines() -> AsyncStream<String> {
        poll { try await self.declinedPurchases() } key: { $0 }
    }

    /// Unfinished transactions found by polling the directory, each form of a transaction once.
    public nonisolated func transactionUpdates() -> AsyncStream<TransactionUpdate> {
        poll { try await self.unfinished() } key: { $0.transaction }
    }

    /// Renewal infos found by polling the directory, each form of a renewal info once: what the sandbox changes
    /// without a transaction (`tally sandbox` turning auto-renew off, billing retry or grace starting on `advance`
    /// with `set billing-issue on`) reaches the engine as StoreKit's `Status.updates` brings it.
    public nonisolated func renewalInfoUpdates() -> AsyncStream<SignedRenewalInfo> {
        poll { try await self.subscriptionStatuses() } key: { $0.renewalInfo }
    }

    /// The account's history (every transaction in purchase order, each in its latest form), signed by the
    /// sandbox's authority.
    public func allTransactions() async throws -> [TransactionUpdate] {
        let sandbox = try load()
        return try sandbox.transactions(account: account).map { try update($0, in: sandbox) }
    }

    /// Looks at the store's change counter every ``pollInterval`` (``SandboxStore/stamp()``: one indexed row)
    /// and reads the account only when it moved since the last read, yielding each element whose key was not
    /// sent before.
    /// A failed read is retried at the next tick.
    private nonisolated func poll<Element: Sendable, Key: Hashable & Sendable>(
        _ read: @escaping @Sendable () async throws -> [Element], key: @escaping @Sendable (Element) -> Key
    ) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let task = Task { [store, pollInterval] in
                var sent: Set<Key> = []
                var lastRead: Int64?
                while !Task.isCancelled {
                    let generation = store.stamp()?.generation
                    if generation == nil || generation != lastRead, let elements = try? await read() {
                        lastRead = generation
                        for element in elements where sent.insert(key(element)).inserted {
                            continuation.yield(element)
                        }
                    }
                    try? await Task.sleep(nanoseconds: UInt64(pollInterval * 1e9))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func update(_ transaction: StoreTransaction, in sandbox: Sandbox) throws(StoreError) -> TransactionUpdate {
        let info = try sandbox.renewalInfos(account: account)
            .first { $0.originalTransactionId == transaction.originalTransactionId }
            .map { info throws(StoreError) in SignedRenewalInfo(renewalInfo: info, jwsRepresentation: try signing.sign(info)) }
        return TransactionUpdate(transaction: transaction, jwsRepresentation: try signing.sign(transaction),
                                 renewalInfo: info)
    }

    private func load() throws -> Sandbox {
        do { return try store.read(account: account) } catch { throw Self.storeError(error) }
    }

    /// Runs a store call under the directory's lock, saving what it did even when it fails (an injected fault
    /// taken and logged).
    private func answer<T: Sendable>(_ body: (inout Sandbox) throws(SandboxError) -> T) throws -> T {
        do {
            return try store.answer(account: account, body)
        } catch let error as SandboxError {
            throw Self.storeError(error)
        }
    }

    /// Loads, changes and saves the sandbox under the directory's lock.
    private func change<T: Sendable>(_ body: (inout Sandbox) throws -> T) throws -> T {
        do {
            return try store.update(account: account, body)
        } catch let error as SandboxError {
            throw Self.storeError(error)
        }
    }

    static func storeError(_ error: SandboxError) -> StoreError {
        switch error.code {
        case .purchaseNotAllowed: StoreError(.purchaseNotAllowed, error.message)
        case .productUnavailable, .unknownProduct: StoreError(.productUnavailable, error.message)
        case .networkError: StoreError(.networkError, error.message)
        case .invalidQuantity: StoreError(.invalidQuantity, error.message)
        case .userCancelled: StoreError(.cancelled, error.message)
        case .invalidOfferSignature: StoreError(.invalidOfferSignature, error.message)
        case .invalidOfferIdentifier, .unknownOfferCode: StoreError(.invalidOfferIdentifier, error.message)
        case .invalidOfferPrice: StoreError(.invalidOfferPrice, error.message)
        case .ineligibleForOffer: StoreError(.ineligibleForOffer, error.message)
        case .missingOfferParameters: StoreError(.missingOfferParameters, error.message)
        case .corruptState, .noState, .io: StoreError(.backend, error.message)
        default: StoreError(.backend, error.message)
        }
    }
}
