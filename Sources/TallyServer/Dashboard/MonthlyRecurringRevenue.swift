import Foundation
import TallyCore
import TallyStorage

/// MRR by currency: each live paid subscription (not in an introductory offer) at its catalog price,
/// normalised to one month (a year ÷ 12, a week × 52 ÷ 12, a day × 365 ÷ 12), rounded to cents at the end.
enum MonthlyRecurringRevenue {
    /// Currency → amount, and how many live subscriptions have no catalog price (a product not in the catalog).
    static func compute(_ products: [DashboardOverview.ProductCount], catalog: Catalog)
        -> (amounts: [(currency: String, amount: Decimal)], unpriced: Int)
    {
        var sums: [String: Decimal] = [:]
        var unpriced = 0
        for count in products {
            let paid = count.active - count.trials
            guard paid > 0 else { continue }
            guard let product = catalog.products.first(where: { $0.id.utf8.elementsEqual(count.productId.utf8) }),
                  let period = product.subscription?.period, period.value > 0 else {
                unpriced += paid
                continue
            }
            sums[product.currency, default: 0] += monthly(product.price, period) * Decimal(paid)
        }
        let amounts = sums.keys.sorted().map { currency in
            (currency, rounded(sums[currency] ?? 0))
        }
        return (amounts, unpriced)
    }

    /// `price` per `period`, as a monthly amount (not rounded).
    static func monthly(_ price: Decimal, _ period: SubscriptionDuration) -> Decimal {
        let value = Decimal(period.value)
        switch period.unit {
        case .month: return price / value
        case .year: return price / (value * 12)
        case .week: return price * 52 / (value * 12)
        case .day: return price * 365 / (value * 12)
        }
    }

    private static func rounded(_ amount: Decimal) -> Decimal {
        var input = amount, output = Decimal()
        NSDecimalRound(&output, &input, 2, .plain)
        return output
    }
}
