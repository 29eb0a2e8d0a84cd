import Foundation
import Tally
import TallyCore

extension MarketSession {
    /// `offerings [--placement P]`: the current offering for the placement (the server's, the kept copy, or the
    /// bundled catalog), each package with its product and localized price; with `--json`, every offering.
    func offerings(_ arguments: Arguments, json: Bool) async throws -> Int32 {
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        let placement = arguments.value("placement")
        if let placement, placement.isEmpty { throw UsageError("--placement is empty") }
        let answer = await store.offerings(placement: placement)
        Console.line(json ? try Output.json(MarketOfferingsText.View(answer)) : MarketOfferingsText.text(answer))
        return ExitCode.ok
    }
}

/// How the market shows offerings.
enum MarketOfferingsText {
    /// Several lines: the current offering, its packages, where it comes from, what was skipped.
    static func text(_ offerings: StoreOfferings) -> String {
        var lines: [String] = []
        let version = offerings.version.map { "version \($0), " } ?? ""
        let placement = offerings.placement.map { " for placement \($0)" } ?? ""
        if let current = offerings.current {
            let about = current.description.isEmpty ? "" : " — \(current.description)"
            lines.append("Offering \(current.id)\(placement) (\(version)from \(origin(offerings.source)))\(about)")
            for package in current.packages {
                lines.append("  \(package.id)  \(package.product.id)  \(package.product.displayPrice)  "
                    + package.product.displayName)
            }
        } else {
            lines.append("No current offering\(placement) (\(version)from \(origin(offerings.source)))")
        }
        if let experiment = offerings.experiment {
            lines.append("experiment \(experiment.id), arm \(experiment.arm)")
        }
        for skipped in offerings.skippedPackages {
            lines.append("skipped: package \(skipped.packageId) of offering \(skipped.offeringId): "
                + "\(skipped.productId) is not sold by the store")
        }
        if let problem = offerings.problem { lines.append("server: \(problem)") }
        return lines.joined(separator: "\n")
    }

    /// One line, for the event printer: `default v4 (server): monthly market.pro.monthly $9.99, …`.
    static func summary(_ offerings: StoreOfferings) -> String {
        let version = offerings.version.map { " v\($0)" } ?? ""
        let placement = offerings.placement.map { " placement \($0)" } ?? ""
        guard let current = offerings.current else {
            return "none\(placement)\(version) (\(offerings.source.rawValue))"
        }
        let packages = current.packages.map { "\($0.id) \($0.product.id) \($0.product.displayPrice)" }
        return "\(current.id)\(placement)\(version) (\(offerings.source.rawValue)): "
            + (packages.isEmpty ? "no packages" : packages.joined(separator: ", "))
    }

    private static func origin(_ source: OfferingsSource) -> String {
        switch source {
        case .server: "the server"
        case .cache: "the copy kept offline"
        case .bundled: "the bundled catalog"
        }
    }

    /// `offerings --json`.
    struct View: Encodable {
        struct Package: Encodable {
            var id: String
            var productId: String
            var displayName: String
            var displayPrice: String
        }

        struct OfferingView: Encodable {
            var id: String
            var description: String
            var packages: [Package]
        }

        struct Skipped: Encodable {
            var offeringId: String
            var packageId: String
            var productId: String
        }

        var source: String
        var version: Int64?
        var placement: String?
        var current: OfferingView?
        var offerings: [OfferingView]
        var experiment: [String: String]?
        var skipped: [Skipped]
        var answeredAt: Date?
        var problem: String?

        init(_ answer: StoreOfferings) {
            func view(_ offering: StoreOffering) -> OfferingView {
                OfferingView(id: offering.id, description: offering.description, packages: offering.packages.map {
                    Package(id: $0.id, productId: $0.product.id, displayName: $0.product.displayName,
                            displayPrice: $0.product.displayPrice)
                })
            }
            source = answer.source.rawValue
            version = answer.version
            placement = answer.placement
            current = answer.current.map(view)
            offerings = answer.all.map(view)
            experiment = answer.experiment.map { ["id": $0.id, "arm": $0.arm] }
            skipped = answer.skippedPackages.map {
                Skipped(offeringId: $0.offeringId, packageId: $0.packageId, productId: $0.productId)
            }
            answeredAt = answer.answeredAt
            problem = answer.problem?.description
        }
    }
}
