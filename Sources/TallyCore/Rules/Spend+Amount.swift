import Foundation

extension Spend {
    /// The most digits a spend amount may have after the decimal point.
    public static let maximumFractionDigits = 8
    /// Spend amounts must be below this.
    public static let amountLimit = Decimal(sign: .plus, exponent: 15, significand: 1)

    /// Why `amount` cannot be spent exactly, or nil when it can: it must be above zero, below
    /// ``amountLimit`` and have at most ``maximumFractionDigits`` decimals. Beyond those, a balance minus the
    /// amount needs more digits than `Decimal` keeps (38), so the spend would round away and cost nothing.
    public static func amountProblem(_ amount: Decimal) -> String? {
        guard !amount.isNaN, amount > 0 else { return "the amount must be greater than zero, got \(amount)" }
        guard amount < amountLimit else { return "the amount must be below \(amountLimit), got \(amount)" }
        var scaled = amount * Decimal(sign: .plus, exponent: maximumFractionDigits, significand: 1)
        var whole = Decimal()
        NSDecimalRound(&whole, &scaled, 0, .plain)
        guard whole == scaled else {
            return "the amount may have at most \(maximumFractionDigits) digits after the decimal point, got \(amount)"
        }
        return nil
    }
}
