import Foundation
import Testing
@testable import TallyCore

/// Where the shared .storekit vectors live: `<package root>/../shared/vectors/storekit`.
enum CatalogVectors {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `<package root>/../shared/vectors/storekit` (as in CI); for a git worktree nested deeper, the nearest
    /// ancestor folder that has `shared/vectors/storekit`.
    static let directory: URL = {
        var folder = packageRoot.deletingLastPathComponent()
        while folder.pathComponents.count > 1 {
            let candidate = folder.appendingPathComponent("shared/vectors/storekit", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors/storekit")
    }()

    /// Every `.storekit` file in the vectors folder, sorted.
    static let fileNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".storekit") }.sorted()
    }()

    /// The files that do not follow Xcode's schema and are rejected on purpose, with the key the error names.
    static let rejected: [String: String] = [
        "38-lokedward-Threadlist.storekit": "subscriptionGroups[0].subscriptions[0].type 'Recurring Subscription'",
        "39-Sberkeakdeniz-TruthOrDare.storekit": "version is missing",
    ]

    static func data(_ prefix: String) throws -> (name: String, data: Data) {
        let name = try #require(fileNames.first { $0.hasPrefix(prefix + "-") }, "no vector \(prefix)-*")
        return (name, try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func catalog(_ prefix: String) throws -> Catalog {
        let (name, data) = try data(prefix)
        return try Catalog(storeKitData: data, fileName: name)
    }

    /// The product ids the raw JSON holds, in the order Tally lists them, read independently with
    /// JSONSerialization: products, then each group's subscriptions, then nonRenewingSubscriptions.
    static func rawProductIds(_ data: Data) throws -> [String] {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        func ids(_ list: Any?) -> [String] {
            ((list as? [[String: Any]]) ?? []).compactMap { $0["productID"] as? String }
        }
        var result = ids(root["products"])
        for group in (root["subscriptionGroups"] as? [[String: Any]]) ?? [] { result += ids(group["subscriptions"]) }
        return result + ids(root["nonRenewingSubscriptions"])
    }
}

@Suite("Catalog: the shared .storekit vectors")
struct CatalogVectorTests {
    @Test("the vectors folder holds the 40 shared files")
    func vectorsPresent() {
        #expect(CatalogVectors.fileNames.count == 40, "looked in \(CatalogVectors.directory.path)")
    }

    @Test("every Xcode-schema file loads with the products its JSON holds", arguments: CatalogVectors.fileNames)
    func loads(fileName: String) throws {
        let data = try Data(contentsOf: CatalogVectors.directory.appendingPathComponent(fileName))
        if let key = CatalogVectors.rejected[fileName] {
            let error = try #require(throws: TallyError.self) { try Catalog(storeKitData: data, fileName: fileName) }
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.hasPrefix(fileName + ": "))
            #expect(error.message.contains(key), "\(error.message)")
            return
        }
        let catalog = try Catalog(storeKitData: data, fileName: fileName)
        var seen: Set<String> = []
        let expected = try CatalogVectors.rawProductIds(data).filter { seen.insert($0).inserted }
        #expect(catalog.products.map(\.id) == expected)
        #expect(catalog.fileName == fileName)
        let currency = try #require(Storefronts.currencyCode(for: catalog.settings.storefront))
        #expect(catalog.products.allSatisfy { $0.currency == currency })
        for product in catalog.products {
            #expect((product.kind == .autoRenewable) == (product.subscription != nil), "\(product.id)")
            #expect(product.price >= 0)
        }
        let grouped = catalog.subscriptionGroups.flatMap(\.productIds)
        #expect(grouped == catalog.products.filter { $0.kind == .autoRenewable }.map(\.id))
    }
}
