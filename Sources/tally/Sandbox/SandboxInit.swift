import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox init --config FILE.storekit [--app-config tally.json] [--start ISO8601]`
enum SandboxInit {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words, allowed: ["config", "app-config", "start"])
        let context = SandboxContext(arguments)
        guard let configPath = arguments.value("config") else { throw UsageError("missing --config FILE.storekit") }
        let catalog = try ConfigurationFiles.catalog(at: configPath)
        let appConfigURL = ConfigurationFiles.appConfigurationURL(at: arguments.value("app-config"),
                                                                  besideStoreKit: configPath)
        let configuration = try ConfigurationFiles.appConfiguration(
            at: arguments.value("app-config"), besideStoreKit: configPath, catalog: catalog)
        let start = try arguments.value("start").map(DateArgument.parse) ?? Date()
        let source = SandboxCatalogSource(
            storeKitFile: ConfigurationFiles.absolute(configPath),
            appConfigurationFile: FileManager.default.fileExists(atPath: appConfigURL.path) ? appConfigURL.path : nil)
        let sandbox = try context.directory.create(catalog: catalog, configuration: configuration, start: start,
                                                   source: source)
        _ = try SandboxCertificateAuthority.loadOrGenerate(in: context.url, now: start)
        for warning in catalog.warnings { Output.error("warning: \(warning)") }
        if context.json {
            try context.printJSON(InitSummary(
                data: context.url.path, products: sandbox.catalog.products.count,
                bundleId: configuration.bundleId, now: sandbox.now))
        } else {
            print("Sandbox created in \(context.url.path): \(sandbox.catalog.products.count) products from "
                + "\(URL(fileURLWithPath: configPath).lastPathComponent), bundle id \(configuration.bundleId).")
        }
        return ExitCode.ok
    }

    private struct InitSummary: Encodable {
        var data: String
        var products: Int
        var bundleId: String
        var now: Date
    }
}

/// Reading the .storekit and tally.json files named on the command line.
enum ConfigurationFiles {
    /// Reads and parses a .storekit file.
    static func catalog(at path: String) throws -> Catalog {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw UsageError("cannot read \(path): no such file or not readable")
        }
        return try Catalog(storeKitData: data, fileName: url.lastPathComponent)
    }

    /// `path` made absolute and standardized, as a sandbox records it.
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// `path`, or `tally.json` beside the .storekit file when no path is given; absolute.
    static func appConfigurationURL(at path: String?, besideStoreKit storeKitPath: String) -> URL {
        (path.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: storeKitPath).deletingLastPathComponent().appendingPathComponent("tally.json"))
            .standardizedFileURL
    }

    /// Reads `tally.json` from `path`, or from beside the .storekit file when no path is given.
    static func appConfiguration(at path: String?, besideStoreKit storeKitPath: String,
                                 catalog: Catalog) throws -> AppConfiguration {
        let url = appConfigurationURL(at: path, besideStoreKit: storeKitPath)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            if path != nil { throw UsageError("cannot read \(url.path): no such file or not readable") }
            Output.error("note: no tally.json beside \(storeKitPath); using bundle id com.example.app, "
                + "no entitlements and no currencies")
            return AppConfiguration(bundleId: "com.example.app")
        }
        let configuration = try AppConfiguration(jsonData: data, fileName: url.lastPathComponent)
        try configuration.validate(against: catalog)
        return configuration
    }
}

/// Dates given on the command line: ISO 8601 with or without fractional seconds.
enum DateArgument {
    static func parse(_ text: String) throws -> Date {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        throw UsageError("'\(text)' is not an ISO 8601 date such as 2026-01-31T12:00:00Z")
    }
}
