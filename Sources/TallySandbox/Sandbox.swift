import Foundation
import TallyCore

/// A simulated App Store with the behaviours of Xcode's StoreKit Testing: accounts and devices, purchases
/// and their outcomes, Ask to Buy, interrupted purchases, subscriptions on a clock the caller moves,
/// billing retry and grace, refunds, unfinished transactions, fault injection and an event log.
///
/// A plain value: copy it, encode it (``SandboxDirectory`` keeps it in a directory), compare it.
public struct Sandbox: Sendable {
    /// The products the store sells.
    public internal(set) var catalog: Catalog
    /// What the app makes of them (bundle id, features, currencies).
    public internal(set) var configuration: AppConfiguration
    /// The files ``catalog`` and ``configuration`` were read from, for ``reload(catalog:configuration:source:)``;
    /// nil for a sandbox made from values, or created before the files were recorded.
    public internal(set) var catalogSource: SandboxCatalogSource?
    /// The sandbox clock; it moves only through ``advance(by:)``.
    public internal(set) var now: Date
    /// The switches; initially the catalog's StoreKit settings.
    public var settings: SandboxSettings
    /// The environment written on transactions and renewal infos (`Sandbox` by default; Xcode writes `Xcode`).
    public var environment: StoreEnvironment = .sandbox
    /// What the store did, in order: the whole log after ``SandboxDirectory/load()``; inside a change
    /// (``SandboxDirectory/update(_:)``) only the events of that change, numbered after those already saved.
    public internal(set) var events: [SandboxEvent] = []
    /// How many events the log held before ``events`` (0 when the whole log was read).
    var eventBase = 0

    var accounts: [String: AccountRecord] = [:]
    /// Transaction id → account, for refunds.
    var transactionAccounts: [String: String] = [:]
    /// Purchases waiting for approval or resolution, oldest first.
    var pending: [PendingPurchase] = []
    /// Ids of pending purchases already approved, declined or resolved.
    var resolvedPurchases: Set<String> = []
    var nextTransactionNumber: Int64 = 2_000_000_000_000_001
    var nextWebOrderNumber: Int64 = 2_000_000_000_500_001
    var nextPurchaseNumber = 1
    var nextDeliverySequence = 1
    /// Nonce (lowercase) → when its offer was signed: the nonces of offer signatures used, kept 24 hours.
    var usedOfferNonces: [String: Date] = [:]
    /// The offer codes made, oldest first.
    public internal(set) var offerCodes: [SandboxOfferCode] = []
    /// Mass renewal-date extensions, oldest first.
    var massExtensions: [SandboxMassExtension] = []
    /// Product id → product and its price in milliunits (rebuilt from the catalog).
    var productIndex: [String: IndexedProduct] = [:]
    /// Event sequence → what its notification is about, taken when the event was logged (only while a
    /// notification URL is set): the change saving the event signs its notification from this, so later events
    /// of the same change do not leak into it. Not kept; emptied once saved.
    var notificationSubjects: [Int: NotificationSubject] = [:]

    /// Creates an empty store selling `catalog`, its clock at `start` (rounded to the millisecond, as Apple's dates).
    /// `source` names the files they were read from, for a later reload.
    public init(catalog: Catalog, configuration: AppConfiguration, start: Date, source: SandboxCatalogSource? = nil) {
        self.catalog = catalog
        self.configuration = configuration
        self.catalogSource = source
        self.now = Date(millisecondsSince1970: start.millisecondsSince1970)
        self.settings = SandboxSettings(storeKit: catalog.settings)
        self.productIndex = IndexedProduct.index(catalog)
        log(.created, account: "", detail: "\(catalog.products.count) products")
        if !SandboxTimeRate.knownRawValues.contains(settings.timeRate) {
            log(.settingsChanged, account: "",
                detail: "time rate \(settings.timeRate) is not a known SKTestSession.TimeRate: subscriptions run in real time")
        }
    }

    /// Every transaction of the account in purchase order, each in its latest form (a refund replaces the record).
    public func transactions(account: String = "default") -> [StoreTransaction] {
        accounts[account]?.transactions ?? []
    }

    /// The renewal information of each of the account's subscription chains, oldest chain first.
    public func renewalInfos(account: String = "default") -> [RenewalInfo] {
        guard let record = accounts[account] else { return [] }
        return record.chains.values.sorted { $0.originalPurchaseDate < $1.originalPurchaseDate
            || ($0.originalPurchaseDate == $1.originalPurchaseDate && $0.groupId < $1.groupId) }
            .map(\.renewalInfo)
    }

    /// What the account owns now, by the TallyCore ownership rules.
    public func state(account: String = "default") -> CustomerState {
        CustomerState(catalog: catalog, configuration: configuration,
                      history: PurchaseHistory(transactions: transactions(account: account),
                                               renewalInfos: renewalInfos(account: account)),
                      at: now)
    }

    /// Purchases waiting for approval or resolution, oldest first; all accounts when `account` is nil.
    public func pendingPurchases(account: String? = nil) -> [PendingPurchase] {
        guard let account else { return pending }
        return pending.filter { $0.account == account }
    }

    /// The accounts that ever did something, sorted.
    public var accountNames: [String] { accounts.keys.sorted() }

    /// The devices of an account that ever purchased or restored, in first-seen order.
    public func devices(account: String = "default") -> [String] {
        accounts[account]?.devices ?? []
    }

    // MARK: - Internal helpers

    /// Appends an event to the log.
    mutating func log(_ kind: SandboxEvent.Kind, account: String, device: String? = nil, productId: String? = nil,
                      transaction: StoreTransaction? = nil, purchaseId: String? = nil, detail: String? = nil,
                      date: Date? = nil) {
        events.append(SandboxEvent(sequence: nextEventSequence, date: date ?? now, kind: kind, account: account,
                                   device: device, productId: productId ?? transaction?.productId,
                                   transactionId: transaction?.transactionId,
                                   originalTransactionId: transaction?.originalTransactionId,
                                   purchaseId: purchaseId, detail: detail))
        if settings.notificationURL != nil, let event = events.last, event.notificationKind != nil {
            let (transaction, renewalInfo) = notificationSubject(for: event)
            notificationSubjects[event.sequence] = NotificationSubject(transaction: transaction, renewalInfo: renewalInfo)
        }
    }

    /// The sequence number of the next event.
    var nextEventSequence: Int { eventBase + events.count + 1 }

    /// Runs `body` on the account's record in place (created when new).
    mutating func withAccount<R>(_ account: String, _ body: (inout AccountRecord) -> R) -> R {
        body(&accounts[account, default: AccountRecord()])
    }

    /// Makes a transaction unfinished on the given devices of the account.
    mutating func deliver(_ transactionId: String, account: String, to devices: [String]) {
        let sequence = nextDeliverySequence
        nextDeliverySequence += 1
        withAccount(account) { record in
            for device in devices { record.unfinished[device, default: [:]][transactionId] = sequence }
        }
    }

    /// Makes a transaction unfinished on every connected device of the account.
    mutating func deliverToAllDevices(_ transactionId: String, account: String) {
        deliver(transactionId, account: account, to: accounts[account]?.devices ?? [])
    }

    /// A new transaction id.
    mutating func takeTransactionId() -> String {
        defer { nextTransactionNumber += 1 }
        return String(nextTransactionNumber)
    }

    /// A new web order line item id.
    mutating func takeWebOrderLineItemId() -> String {
        defer { nextWebOrderNumber += 1 }
        return String(nextWebOrderNumber)
    }
}

/// A catalog product with what a purchase needs precomputed.
struct IndexedProduct: Sendable, Hashable {
    var product: CatalogProduct
    var priceMillis: Int64

    static func index(_ catalog: Catalog) -> [String: IndexedProduct] {
        var index: [String: IndexedProduct] = [:]
        for product in catalog.products where index[product.id] == nil {
            index[product.id] = IndexedProduct(product: product, priceMillis: millis(product.price))
        }
        return index
    }

    /// A decimal amount in milliunits, rounded half up.
    static func millis(_ amount: Decimal) -> Int64 {
        var scaled = amount * 1000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        return NSDecimalNumber(decimal: rounded).int64Value
    }
}
