extension OfferingsDocument {
    /// Every problem of this document against `catalog`, one line each, sorted for stable messages: a package
    /// naming a product the catalog lacks (naming the offering, the package and the product), an offering id that
    /// `current`, a placement, a rule or an arm names but the document lacks, and the mapping's problems
    /// (``AppConfiguration/problems(against:)``).
    public func problems(against catalog: Catalog, bundleId: String) -> [String] {
        let catalogName = catalog.fileName ?? "the catalog"
        var problems: [String] = []
        for offering in offerings {
            for package in offering.packages where catalog.product(package.productId) == nil {
                problems.append("offerings.\(offering.id).packages.\(package.id): product \(package.productId) is not "
                                + "in \(catalogName)")
            }
        }
        func named(_ id: String, by path: String) {
            if offering(id: id) == nil { problems.append("\(path): offering \(id) is not in offerings") }
        }
        if let current { named(current, by: "current") }
        for (placement, id) in placements.sorted(by: { $0.key < $1.key }) { named(id, by: "placements.\(placement)") }
        for rule in targeting {
            switch rule.pick {
            case .offering(let id): named(id, by: "targeting.\(rule.id).offering")
            case .experiment(let arms):
                for arm in arms { named(arm.offering, by: "targeting.\(rule.id).experiment.\(arm.id)") }
            }
        }
        problems += appConfiguration(bundleId: bundleId).problems(against: catalog)
        return problems
    }

    /// Throws one ``TallyError/Code/invalidOfferings`` error listing ``problems(against:bundleId:)``, if any.
    public func validate(against catalog: Catalog, bundleId: String) throws(TallyError) {
        let problems = problems(against: catalog, bundleId: bundleId)
        guard !problems.isEmpty else { return }
        throw TallyError(.invalidOfferings, "the offerings document does not match \(catalog.fileName ?? "the catalog"):\n"
                         + problems.map { "- \($0)" }.joined(separator: "\n"))
    }
}
