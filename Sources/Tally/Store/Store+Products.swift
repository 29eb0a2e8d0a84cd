import Foundation
import TallyCore


extension Store {
    /// The products among `ids`, localized for ``locale``, and the ids the store does not sell. Answers are
    /// cached: only ids never asked about reach the backend. Each product's
    /// ``StoreProduct/isEligibleForIntroOffer`` is computed now from the customer's history.
    /// - Throws: ``StoreError`` (`networkError`, `backend`) when the backend cannot answer.
    public func products(_ ids: [String]) async throws(StoreError) -> ProductsResult {
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        let missing = unique.filter { productCache[$0] == nil && !invalidProductIds.contains($0) }
        if !missing.isEmpty {
            let answer: BackendProducts
            do {
                answer = try await backend.products(for: missing)
            } catch {
                throw StoreError.from(error, doing: "loading products \(missing.joined(separator: ", "))")
            }
            for product in answer.products {
                var shown = StoreProduct(product, locale: locale)
                if let displayPrice = answer.displayPrices[product.id] { shown.displayPrice = displayPrice }
                productCache[product.id] = shown
            }
            storeIneligibleGroups.formUnion(answer.introOfferIneligibleGroups)
            // An id the backend neither returned nor called invalid is not sold either.
            for id in missing where productCache[id] == nil { invalidProductIds.insert(id) }
        }
        let used = state.introductoryOfferUsedGroups.union(storeIneligibleGroups)
        let products = unique.compactMap { id -> StoreProduct? in
            guard var product = productCache[id] else { return nil }
            if let subscription = product.product.subscription {
                product.isEligibleForIntroOffer = subscription.introductoryOffer != nil
                    && !used.contains(subscription.groupId)
            }
            return product
        }
        return ProductsResult(products: products,
                              invalidProductIds: unique.filter { invalidProductIds.contains($0) })
    }
}
