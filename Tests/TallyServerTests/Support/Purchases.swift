import Foundation
import TallyCore

/// Transactions of the Market example's products, as the sandbox would sign them.
enum Purchases {
    static func make(_ id: String, product: String, type: ProductType, at date: Date, original: String? = nil,
                     expires: Date? = nil, group: String? = nil, revoked: Date? = nil, token: String? = nil,
                     bundleId: String = "com.example.market", environment: StoreEnvironment = .sandbox) -> StoreTransaction {
        StoreTransaction(
            transactionId: id, originalTransactionId: original ?? id, bundleId: bundleId, productId: product,
            subscriptionGroupIdentifier: group, purchaseDate: date, originalPurchaseDate: date, expiresDate: expires,
            type: type, appAccountToken: token, signedDate: revoked ?? date,
            revocationReason: revoked == nil ? nil : .other, revocationDate: revoked, environment: environment)
    }

    static func coins(_ id: String, at date: Date, quantity: Int = 1) -> StoreTransaction {
        var transaction = make(id, product: "market.coins.10", type: .consumable, at: date)
        transaction.quantity = quantity
        return transaction
    }

    static func premium(_ id: String, at date: Date, revoked: Date? = nil) -> StoreTransaction {
        make(id, product: "market.premium", type: .nonConsumable, at: date, revoked: revoked)
    }

    static func monthly(_ id: String, original: String, at date: Date, expires: Date) -> StoreTransaction {
        make(id, product: "market.pro.monthly", type: .autoRenewable, at: date, original: original, expires: expires,
             group: "6E1A1000")
    }
}
