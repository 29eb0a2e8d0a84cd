extension CatalogProduct.Localization {
    /// Picks the localization for `locale`: an exact match (ignoring case and `-`/`_`), else the one sharing
    /// the most leading parts with it (same language, then script or region; `zh_Hans_CN` → `zh_Hans`),
    /// else the first one. Nil only when `localizations` is empty.
    public static func best(in localizations: [CatalogProduct.Localization], for locale: String) -> CatalogProduct.Localization? {
        let wanted = parts(of: locale)
        var best: (score: Int, localization: CatalogProduct.Localization)?
        for localization in localizations {
            let offered = parts(of: localization.locale)
            if offered == wanted { return localization }
            let score = zip(offered, wanted).prefix { $0 == $1 }.count
            if score > 0, score > best?.score ?? 0 { best = (score, localization) }
        }
        return best?.localization ?? localizations.first
    }

    private static func parts(of locale: String) -> [String] {
        locale.lowercased().split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
    }
}

extension CatalogProduct {
    /// This product's localization for `locale` (exact, then same language, then the first).
    public func localization(for locale: String) -> Localization? {
        Localization.best(in: localizations, for: locale)
    }
}

extension SubscriptionGroup {
    /// This group's localization for `locale` (exact, then same language, then the first); nil if it has none.
    public func localization(for locale: String) -> CatalogProduct.Localization? {
        CatalogProduct.Localization.best(in: localizations, for: locale)
    }
}
