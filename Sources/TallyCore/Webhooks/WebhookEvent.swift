import Foundation

/// One webhook event as receivers get it (docs/webhooks.md): what happened, to whom, about which transaction.
///
/// The store writes it to its outbox in the write that caused it, without ``aliases``, ``entitlementIds`` and
/// ``attributes``; the sender fills those in from the customer as it is when the event is sent.
public struct WebhookEvent: Sendable, Hashable {
    /// The idempotency key: the same on every retry, after restarts and on a replay.
    public var id: String
    /// What happened.
    public var type: WebhookEventType
    /// The customer it happened to.
    public var appUserId: String
    /// The customer's other ids (anonymous ids aliased to it), oldest first.
    public var aliases: [String]
    /// The product concerned; nil for a spend or a test.
    public var productId: String?
    /// For ``WebhookEventType/productChange``: the product the chain had before; else nil.
    public var previousProductId: String?
    /// The entitlements ``productId`` unlocks (`tally.json`).
    public var entitlementIds: [String]
    /// The transaction concerned (a spend's id for a spend); nil when none.
    public var transactionId: String?
    /// Its chain.
    public var originalTransactionId: String?
    /// `Production`, `Sandbox`, … as Apple signed it; nil when unknown.
    public var environment: String?
    /// Always `APP_STORE`.
    public var store: String
    /// When it happened: the purchase date of a purchase, the revocation date of a refund, else when the server
    /// recorded it.
    public var eventAt: Date
    /// The transaction's `expiresDate`, for subscriptions.
    public var expiresAt: Date?
    /// The price Apple reported (exact, in ``currency``); nil when unknown.
    public var price: Decimal?
    /// ISO 4217 currency of ``price``.
    public var currency: String?
    /// For ``WebhookEventType/virtualCurrencyTransaction``: how each virtual currency moved (negative: taken
    /// away); else empty.
    public var virtualCurrency: [WebhookCurrencyChange]
    /// For ``WebhookEventType/transfer``: the customer the chain moved from; else nil.
    public var transferredFrom: String?
    /// For ``WebhookEventType/transfer``: the customer the chain moved to; else nil.
    public var transferredTo: String?
    /// The customer's attributes.
    public var attributes: [String: String]

    /// Creates an event.
    public init(id: String, type: WebhookEventType, appUserId: String, aliases: [String] = [],
                productId: String? = nil, previousProductId: String? = nil, entitlementIds: [String] = [],
                transactionId: String? = nil, originalTransactionId: String? = nil, environment: String? = nil,
                store: String = WebhookEvent.appStore, eventAt: Date, expiresAt: Date? = nil, price: Decimal? = nil,
                currency: String? = nil, virtualCurrency: [WebhookCurrencyChange] = [],
                transferredFrom: String? = nil, transferredTo: String? = nil, attributes: [String: String] = [:]) {
        self.id = id
        self.type = type
        self.appUserId = appUserId
        self.aliases = aliases
        self.productId = productId
        self.previousProductId = previousProductId
        self.entitlementIds = entitlementIds
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.environment = environment
        self.store = store
        self.eventAt = eventAt
        self.expiresAt = expiresAt
        self.price = price
        self.currency = currency
        self.virtualCurrency = virtualCurrency
        self.transferredFrom = transferredFrom
        self.transferredTo = transferredTo
        self.attributes = attributes
    }

    /// The ``store`` of every event: the App Store.
    public static let appStore = "APP_STORE"
}

/// How one virtual currency moved in a ``WebhookEventType/virtualCurrencyTransaction`` event.
public struct WebhookCurrencyChange: Sendable, Hashable {
    /// The currency's name in `tally.json`.
    public var code: String
    /// How much it moved (negative: taken away), exact.
    public var amount: Decimal

    /// Creates a change.
    public init(code: String, amount: Decimal) {
        self.code = code
        self.amount = amount
    }
}
