import Foundation

/// What the overview counts and sums, as the store aggregates it (``DashboardStore/dashboardOverview(days:now:)``).
public struct DashboardOverview: Sendable, Hashable {
    /// Live subscriptions of one product: chains whose latest unrevoked period runs at `now`.
    public struct ProductCount: Sendable, Hashable {
        /// The product.
        public var productId: String
        /// Chains in a paid or discounted period.
        public var active: Int
        /// Of those, chains in an introductory offer (`offerType` 1).
        public var trials: Int

        /// Creates a count.
        public init(productId: String, active: Int, trials: Int) {
            self.productId = productId
            self.active = active
            self.trials = trials
        }
    }

    /// A sum of prices on one UTC day in one currency, in milliunits (Apple's `price`: 10990 = 10.99).
    public struct DailyAmount: Sendable, Hashable {
        /// `YYYY-MM-DD`.
        public var day: String
        /// ISO 4217.
        public var currency: String
        /// The sum in milliunits.
        public var milliunits: Int64
        /// How many transactions.
        public var count: Int

        /// Creates a sum.
        public init(day: String, currency: String, milliunits: Int64, count: Int) {
            self.day = day
            self.currency = currency
            self.milliunits = milliunits
            self.count = count
        }
    }

    /// The days covered.
    public var days: DashboardDays
    /// Live subscriptions by product.
    public var products: [ProductCount]
    /// Chains whose renewal info says billing retry and whose grace period runs at `now`.
    public var inGracePeriod: Int
    /// Chains whose renewal info says billing retry, past any grace period, with no live period.
    public var inBillingRetry: Int
    /// Sums of `price` by purchase day and currency (refunded ones included: refunds are listed apart).
    public var revenue: [DailyAmount]
    /// Sums of `price` of revoked transactions by revocation day and currency.
    public var refunds: [DailyAmount]
    /// Customers first seen by this server, by day (`YYYY-MM-DD` → count; days with none absent).
    public var newCustomers: [String: Int]

    /// Creates an overview.
    public init(days: DashboardDays, products: [ProductCount], inGracePeriod: Int, inBillingRetry: Int,
                revenue: [DailyAmount], refunds: [DailyAmount], newCustomers: [String: Int]) {
        self.days = days
        self.products = products
        self.inGracePeriod = inGracePeriod
        self.inBillingRetry = inBillingRetry
        self.revenue = revenue
        self.refunds = refunds
        self.newCustomers = newCustomers
    }
}
