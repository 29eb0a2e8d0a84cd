import Foundation


extension CustomerState {
    /// Computes what the customer owns at `now` from the purchase history (pure, deterministic).
    ///
    /// Only transactions purchased, refunds dated and spends made at or before `now` count. Duplicate
    /// copies of a transaction count once: the newest facts (``StoreTransaction/supersedes(_:)``).
    public init(catalog: Catalog, configuration: AppConfiguration, history: PurchaseHistory, at now: Date) {
        self.init(rules: CatalogRules(catalog: catalog, configuration: configuration), history: history,
                  nets: Optional<[String: Decimal]>.none, at: now)
    }

    /// Computes what the customer owns at `now`, taking balances and debts from `nets` — the net amount per
    /// currency that a store keeps materialised with ``CurrencyCredits`` and spends — instead of replaying the
    /// history's consumables and spends, so the cost does not grow with them: `history` then needs only the
    /// transactions that are not consumables. ``ledger`` is empty; read the ledger from the whole history.
    ///
    /// Facts count from the moment they are stored: a non-consumable dated after `now` (a clock running behind
    /// the store's, or a sandbox ahead in time) is owned at once, as the nets already count coins at once;
    /// subscription periods still follow their own dates.
    public init(catalog: Catalog, configuration: AppConfiguration, history: PurchaseHistory,
                nets: [String: Decimal], at now: Date) {
        self.init(rules: CatalogRules(catalog: catalog, configuration: configuration), history: history, nets: nets,
                  at: now)
    }

    /// ``init(catalog:configuration:history:nets:at:)`` with the catalog and configuration read once into `rules`.
    public init(rules: CatalogRules, history: PurchaseHistory, nets: [String: Decimal], at now: Date) {
        var stored = history
        if stored.transactions.contains(where: { $0.purchaseDate > now }) {
            for index in stored.transactions.indices where stored.transactions[index].purchaseDate > now {
                let transaction = stored.transactions[index]
                let kind = ProductKind.of(transaction.type, catalogKind: rules.products[transaction.productId]?.kind)
                if kind == .nonConsumable { stored.transactions[index].purchaseDate = now }
            }
        }
        self.init(rules: rules, history: stored, nets: Optional(nets), at: now)
    }

    private init(rules: CatalogRules, history: PurchaseHistory, nets: [String: Decimal]?, at now: Date) {
        let configuration = rules.configuration
        let transactions = history.transactions
        let classified = ClassifiedHistory(transactions, through: now, products: rules.products, rates: rules.rates)
        let ownership = Ownership(history: classified, at: now)
        let resolver = SubscriptionResolver(transactions: transactions, history: classified,
                                            renewals: RenewalLookup(history.renewalInfos), now: now)
        let subscriptions = ownership.groups.keys.sorted().compactMap { groupId in
            resolver.resolve(groupId: groupId, positions: ownership.groups[groupId] ?? [])
        }
        let nonRenewing = NonRenewingResolver(history: classified,
                                              durations: configuration.nonRenewingDurations, now: now)
            .resolve(ownership.nonRenewing)
        let nonConsumables = ownership.nonConsumables.sorted()
        var balances: [String: Decimal] = [:]
        var debts: [String: Decimal] = [:]
        let ledgerWarnings: [String]
        let ledgerStorage: LedgerStorage
        if let nets {
            (balances, debts) = Self.balancesAndDebts(nets: nets, currencies: configuration.currencies.keys)
            ledgerWarnings = classified.table.rates.warnings
            ledgerStorage = LedgerStorage([])
        } else {
            let ledger = Ledger(history: history, classified: classified, through: now, recordsEntries: false)
            for currency in ledger.currencies {
                balances[currency] = ledger.balance(of: currency)
                let debt = ledger.debt(of: currency)
                if debt > 0 { debts[currency] = debt }
            }
            ledgerWarnings = ledger.warnings
            ledgerStorage = LedgerStorage(history: history, classified: classified, through: now)
        }
        let entitlements = EntitlementResolver(nonConsumables: nonConsumables, subscriptions: subscriptions,
                                               nonRenewing: nonRenewing.states)
            .entitlements(configuration.entitlements)
        let warnings = Set(ownership.warnings).union(nonRenewing.warnings).union(ledgerWarnings).sorted()
        self.init(date: now, entitlements: entitlements, nonConsumables: nonConsumables,
                  subscriptions: subscriptions, nonRenewing: nonRenewing.states, balances: balances, debts: debts,
                  ledger: ledgerStorage,
                  introductoryOfferUsedGroups: ownership.introductoryOfferUsedGroups,
                  warnings: warnings)
    }

    /// Whether the customer may still get an introductory offer in a group: once per group per account.
    public func isEligibleForIntroductoryOffer(groupId: String) -> Bool {
        !introductoryOfferUsedGroups.contains(groupId)
    }

    /// Whether the customer has lapsed in a group: subscribed there before, and every subscription of the group is
    /// now expired or revoked (none entitled, none in billing retry). Group ids compared as bytes.
    public func hasLapsed(groupId: String) -> Bool {
        let inGroup = subscriptions.filter { $0.groupId.utf8.elementsEqual(groupId.utf8) }
        return !inGroup.isEmpty && inGroup.allSatisfy { $0.status == .expired || $0.status == .revoked }
    }
}
