import Foundation

/// Where the package and the built products are.
enum TestPaths {
    /// The package root, from this file's path (Tests/TallyServerProcessTests/Support/TestPaths.swift).
    static var packageRoot: URL {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url
    }

    /// The Market example: `Market.storekit` and `tally.json`.
    static var market: URL { packageRoot.appendingPathComponent("Examples/Market") }

    /// The folder holding the built products (the test bundle's folder on Linux, the .xctest's parent on macOS).
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    /// The built `tally` executable.
    static var tally: URL { productsDirectory.appendingPathComponent("tally") }
}
