import Foundation


/// The catalog facts the rules need, indexed by product id (the first product wins when a file repeats an id).
struct ProductLookup: Sendable {
    /// What the rules need to know about one product.
    struct Info: Sendable {
        var kind: ProductKind
        var groupId: String?
        var level: Int?
        var period: SubscriptionDuration?
    }

    private let infos: [String: Info]

    init(_ catalog: Catalog) {
        var infos: [String: Info] = [:]
        for product in catalog.products where infos[product.id] == nil {
            infos[product.id] = Info(kind: product.kind, groupId: product.subscription?.groupId,
                                     level: product.subscription?.level, period: product.subscription?.period)
        }
        self.infos = infos
    }

    subscript(productId: String) -> Info? { infos[productId] }
}
