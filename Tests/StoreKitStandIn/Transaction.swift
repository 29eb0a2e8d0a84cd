import Foundation

/// Stands in for `StoreKit.Transaction`, read from its scripted JWS (`jsonRepresentation` is its payload).
public struct Transaction: Equatable, Hashable, Identifiable, Sendable, CustomDebugStringConvertible {
    /// The transaction id.
    public let id: UInt64
    /// The original purchase's id; differs from `id` for restores and renewals.
    public let originalID: UInt64
    /// The subscription purchase-event id across devices.
    public let webOrderLineItemID: String?
    /// The product.
    public let productID: String
    /// The product's kind.
    public let productType: Product.ProductType
    /// The subscription group.
    public let subscriptionGroupID: String?
    /// The app's bundle id.
    public let appBundleID: String
    /// When it was charged.
    public let purchaseDate: Date
    /// When the original purchase was charged.
    public let originalPurchaseDate: Date
    /// The subscription's expiry.
    public let expirationDate: Date?
    /// How many were bought (consumables).
    public let purchasedQuantity: Int
    /// Whether the customer upgraded to another subscription.
    public let isUpgraded: Bool
    /// Purchased or family-shared.
    public let ownershipType: Transaction.OwnershipType
    /// When it was refunded or revoked.
    public let revocationDate: Date?
    /// Why it was refunded or revoked.
    public let revocationReason: Transaction.RevocationReason?
    /// The UUID given with the `appAccountToken(_:)` purchase option.
    public let appAccountToken: UUID?
    /// When it was signed.
    public let signedDate: Date
    /// The device verification value.
    public let deviceVerification: Data
    /// The device verification nonce.
    public let deviceVerificationNonce: UUID
    /// The JSON payload, with the schema of `JWSTransactionDecodedPayload`.
    public var jsonRepresentation: Data { payload }

    let payload: Data
    let jws: String

    /// A short description, for test failure messages.
    public var debugDescription: String { "Transaction(\(id), \(productID))" }

    /// A scripted transaction, read from its JWS (the App Store's `signedTransactionInfo`).
    @_spi(Scripting) public init(jwsRepresentation: String) throws(ScriptError) {
        let payload = try SignedPayload(jws: jwsRepresentation)
        id = try payload.id("transactionId")
        originalID = (try? payload.id("originalTransactionId")) ?? id
        webOrderLineItemID = payload.string("webOrderLineItemId")
        guard let product = payload.string("productId"), let type = payload.string("type"),
              let purchased = payload.date("purchaseDate") else {
            throw ScriptError("a transaction needs productId, type and purchaseDate")
        }
        productID = product
        productType = Product.ProductType(rawValue: type)
        subscriptionGroupID = payload.string("subscriptionGroupIdentifier")
        appBundleID = payload.string("bundleId") ?? ""
        purchaseDate = purchased
        originalPurchaseDate = payload.date("originalPurchaseDate") ?? purchased
        expirationDate = payload.date("expiresDate")
        purchasedQuantity = payload.int("quantity") ?? 1
        isUpgraded = payload.bool("isUpgraded") ?? false
        ownershipType = OwnershipType(rawValue: payload.string("inAppOwnershipType") ?? "PURCHASED")
        revocationDate = payload.date("revocationDate")
        revocationReason = payload.int("revocationReason").map(RevocationReason.init(rawValue:))
        appAccountToken = payload.string("appAccountToken").flatMap(UUID.init(uuidString:))
        signedDate = payload.date("signedDate") ?? purchased
        deviceVerification = Data()
        deviceVerificationNonce = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        self.payload = payload.data
        jws = jwsRepresentation
    }

    /// Tells the App Store the content was delivered: recorded, and the transaction leaves `unfinished`.
    public func finish() async {
        StoreKitScript.shared.recordFinish(self)
    }

    /// The scripted status of this transaction's subscription chain (its group's status whose transaction has this
    /// `originalID`); nil unless `productType == .autoRenewable`.
    public var subscriptionStatus: Product.SubscriptionInfo.Status? {
        get async {
            guard productType == .autoRenewable, let group = subscriptionGroupID else { return nil }
            return StoreKitScript.shared.answers.statuses[group]?
                .first { $0.transaction.unsafePayloadValue.originalID == originalID }
        }
    }

    /// Transactions created or updated outside the app. As Apple's listener does at launch, a new sequence first
    /// delivers each transaction `unfinished` holds when it is made; then what tests push through
    /// ``StoreKitScript/pushUpdate(_:)`` after it was made.
    public static var updates: Transaction.Transactions { StoreKitScript.shared.updatesSequence() }

    /// The scripted entitling transactions.
    public static var currentEntitlements: Transaction.Transactions {
        Transactions(StoreKitScript.shared.scripted(\.currentEntitlements))
    }

    /// The scripted unfinished transactions, less those finished since.
    public static var unfinished: Transaction.Transactions {
        Transactions(StoreKitScript.shared.scripted(\.unfinished))
    }

    /// The scripted history.
    public static var all: Transaction.Transactions { Transactions(StoreKitScript.shared.scripted(\.all)) }
}

extension Transaction {
    /// Stands in for `Transaction.Transactions`: a struct (not a typealias) conforming to `AsyncSequence`.
    public struct Transactions: AsyncSequence, Sendable {
        /// Each element: a transaction with StoreKit's verdict on it.
        public typealias Element = VerificationResult<Transaction>

        let stream: AsyncStream<VerificationResult<Transaction>>

        init(_ stream: AsyncStream<VerificationResult<Transaction>>) { self.stream = stream }

        init(_ elements: [VerificationResult<Transaction>]) {
            stream = AsyncStream { continuation in
                for element in elements { continuation.yield(element) }
                continuation.finish()
            }
        }

        /// Iterates without throwing (`for await`), as Apple's samples do.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<VerificationResult<Transaction>>.Iterator
            /// The next scripted transaction; nil once the sequence ends.
            public mutating func next() async -> VerificationResult<Transaction>? { await base.next() }
        }

        /// An iterator over the scripted transactions.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
    }

    /// Stands in for `Transaction.OwnershipType` (a struct with `String` raw values).
    public struct OwnershipType: Equatable, Hashable, RawRepresentable, Sendable {
        /// The raw value, as StoreKit has it.
        public let rawValue: String
        /// Wraps a raw value, known or not (as StoreKit may send a newer one).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// StoreKit's `purchased` (raw value "PURCHASED").
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        /// StoreKit's `familyShared` (raw value "FAMILY_SHARED").
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
    }

    /// Stands in for `Transaction.RevocationReason` (a struct with `Int` raw values).
    public struct RevocationReason: Equatable, Hashable, RawRepresentable, Sendable {
        /// The raw value, as StoreKit has it.
        public let rawValue: Int
        /// Wraps a raw value, known or not (as StoreKit may send a newer one).
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// StoreKit's `developerIssue` (raw value 1).
        public static let developerIssue = RevocationReason(rawValue: 1)
        /// StoreKit's `other` (raw value 0).
        public static let other = RevocationReason(rawValue: 0)
    }

    /// Stands in for `Transaction.OfferType` (a struct with `Int` raw values).
    public struct OfferType: Equatable, Hashable, RawRepresentable, Sendable {
        /// The raw value, as StoreKit has it.
        public let rawValue: Int
        /// Wraps a raw value, known or not (as StoreKit may send a newer one).
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// StoreKit's `introductory` (raw value 1).
        public static let introductory = OfferType(rawValue: 1)
        /// StoreKit's `promotional` (raw value 2).
        public static let promotional = OfferType(rawValue: 2)
        /// StoreKit's `code` (raw value 3).
        public static let code = OfferType(rawValue: 3)
    }
}
