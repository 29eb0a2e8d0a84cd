import Foundation
import Observation
import Tally
import TallyStoreKit

/// The market screen's model: the tutorials' market (coins, premium, a subscription, a season pass) over Tally's
/// ``StoreModel``. Everything the SwiftUI view shows is here, so it is compiled and tested on Linux (against the
/// StoreKit stand-in); the view (MarketApp.swift) only lays it out.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
@MainActor
@Observable
public final class MarketShop {
    /// One product as the list shows it.
    public struct Row: Sendable, Hashable, Identifiable {
        /// What the row's button does.
        public enum Action: Sendable, Hashable {
            /// Buy at the displayed price.
            case buy
            /// Already owned (a non-consumable, the subscription in force, a season pass running): no button.
            case owned
            /// An Ask to Buy waits for a parent: no button.
            case waitingForApproval
        }

        /// The product id.
        public var id: String
        /// The localized name.
        public var name: String
        /// The localized price, as the App Store formats it.
        public var price: String
        /// What the button does.
        public var action: Action
    }

    /// The products the market sells, in the catalog's order.
    public nonisolated static let productIds = ["market.coins.10", "market.coins.100", "market.premium",
                                                "market.removeads", "market.pro.monthly", "market.pro.yearly",
                                                "market.seasonpass"]

    /// The engine's model behind the screen.
    public let model: StoreModel
    /// The last thing to tell the customer (a failure, a restore's count); nil when nothing.
    public private(set) var message: String?

    /// A shop over an opened store.
    public init(model: StoreModel) {
        self.model = model
    }

    /// Opens the market on StoreKit: the catalog and `tally.json` from the app's resources, the customer file in
    /// `directory`, verification against Apple's root for `tally.json`'s bundle id in `environments` (`[.xcode]` under
    /// Xcode's StoreKit testing with Examples/Market/Market.storekit, `[.production, .sandbox]` in an App Store
    /// build), and the server link when the app has one.
    public static func open(storeKitFile: URL, configurationFile: URL, directory: URL, environments: [StoreEnvironment],
                            appAppleId: Int64? = nil, serverLink: ServerLink? = nil) async throws -> MarketShop {
        let catalog = try Catalog(storeKitData: Data(contentsOf: storeKitFile), fileName: storeKitFile.lastPathComponent)
        let configuration = try AppConfiguration(jsonData: Data(contentsOf: configurationFile),
                                                 fileName: configurationFile.lastPathComponent)
        let verifier = try AppStoreVerifier(bundleId: configuration.bundleId, appAppleId: appAppleId,
                                            environments: environments)
        let store = try await Store(backend: StoreKitBackend(catalog: catalog, verifier: verifier), catalog: catalog,
                                    configuration: configuration, directory: directory, serverLink: serverLink)
        let shop = MarketShop(model: await StoreModel(store: store))
        await shop.load()
        return shop
    }

    /// Loads the products (call once the screen appears).
    public func load() async {
        await model.loadProducts(Self.productIds)
        await model.refreshSubscriptionStatus()
        message = model.lastError?.message
    }

    /// The product list.
    public var rows: [Row] {
        let pending = Set(model.pendingPurchases.map(\.productId))
        return model.products.map { product in
            let action: Row.Action = if pending.contains(product.id) {
                .waitingForApproval
            } else if owns(product) {
                .owned
            } else {
                .buy
            }
            return Row(id: product.id, name: product.displayName, price: product.displayPrice, action: action)
        }
    }

    /// The coin balance.
    public var coins: Decimal { model.state.balance("coins") }

    /// Whether the premium content is unlocked (the premium lock is open).
    public var isPremiumUnlocked: Bool { model.isEntitled("premium") }

    /// Whether the Pro subscription (monthly or yearly) is active.
    public var isPro: Bool { model.isEntitled("pro") }

    /// Whether buy buttons are shown at all (false under Screen Time or parental controls).
    public var canBuy: Bool { model.canMakePayments }

    /// The Ask to Buy rows: each pending purchase's product name.
    public var pendingRows: [String] {
        model.pendingPurchases.map { pending in
            model.products.first { $0.id == pending.productId }?.displayName ?? pending.productId
        }
    }

    /// Buys a product from the list.
    public func buy(_ id: String) async {
        guard let product = model.products.first(where: { $0.id == id }) else {
            message = "\(id) is not for sale"
            return
        }
        message = nil
        switch await model.purchase(product) {
        case .pending?: message = "Waiting for a parent to approve \(product.displayName)"
        case nil: message = model.lastError?.message
        default: break
        }
    }

    /// Restores purchases (shows the App Store sign-in).
    public func restore() async {
        guard let count = await model.restore() else {
            message = model.lastError?.message
            return
        }
        message = count == 0 ? "Nothing to restore" : "Restored \(count) purchase\(count == 1 ? "" : "s")"
    }

    /// The App Store id of the latest purchase of `productId` that was not refunded, for StoreKit's refund sheet; nil
    /// when there is none.
    public func refundableTransactionId(of productId: String) async -> UInt64? {
        let transactions = await model.store.history.transactions
        return transactions.last { $0.productId == productId && !$0.isRevoked }.flatMap { UInt64($0.transactionId) }
    }

    /// Shows `text` to the customer (what the view learned itself, such as a refund sheet's failure).
    public func show(_ text: String) {
        message = text
    }

    private func owns(_ product: StoreProduct) -> Bool {
        let state = model.state
        switch product.product.kind {
        case .consumable: return false
        case .nonConsumable: return state.nonConsumables.contains(product.id)
        case .autoRenewable:
            return state.subscriptions.contains { $0.productId == product.id && $0.status == .subscribed }
        case .nonRenewing: return state.nonRenewing.contains { $0.productId == product.id && $0.isActive }
        }
    }
}
