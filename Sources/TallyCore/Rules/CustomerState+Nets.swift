import Foundation

extension CustomerState {
    /// Balances and debts from the net amount per currency a store keeps materialised (``CurrencyCredits``
    /// credits minus claw-backs minus spends): every configured currency has a balance (zero when none was
    /// ever credited), a positive net is a balance, a negative net is a debt of its size.
    ///
    /// The one rule both a computed state and a state whose nets alone changed (a spend) use.
    public static func balancesAndDebts(nets: [String: Decimal], currencies: some Sequence<String>)
        -> (balances: [String: Decimal], debts: [String: Decimal])
    {
        var balances: [String: Decimal] = [:]
        var debts: [String: Decimal] = [:]
        for currency in currencies { balances[currency] = 0 }
        for (currency, net) in nets {
            balances[currency] = max(net, 0)
            if net < 0 { debts[currency] = -net }
        }
        return (balances, debts)
    }
}
