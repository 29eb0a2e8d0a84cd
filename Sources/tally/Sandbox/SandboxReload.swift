import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox reload [--config FILE.storekit] [--app-config tally.json]`: reads the sandbox's `.storekit`
/// file (and its `tally.json`) again, so products added while the sandbox runs are sold, keeping every
/// transaction, subscription, switch and the clock; refuses a file that would break what the sandbox holds.
enum SandboxReloadCommand {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words, allowed: ["config", "app-config"])
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        let context = SandboxContext(arguments)
        let recorded = try context.directory.load(account: context.account, events: false).catalogSource
        guard let storeKitPath = arguments.value("config") ?? recorded?.storeKitFile else {
            throw UsageError("this sandbox does not record the .storekit file it was created from (it is older "
                + "than tally sandbox reload): name it with --config FILE.storekit")
        }
        let catalog = try ConfigurationFiles.catalog(at: storeKitPath)
        let named = arguments.value("app-config")
            ?? (arguments.value("config") == nil ? recorded?.appConfigurationFile : nil)
        let appConfigURL = ConfigurationFiles.appConfigurationURL(at: named, besideStoreKit: storeKitPath)
        let readsConfiguration = named != nil || FileManager.default.fileExists(atPath: appConfigURL.path)
        let configuration: AppConfiguration? = readsConfiguration
            ? try ConfigurationFiles.appConfiguration(at: appConfigURL.path, besideStoreKit: storeKitPath,
                                                      catalog: catalog)
            : nil
        let source = SandboxCatalogSource(storeKitFile: ConfigurationFiles.absolute(storeKitPath),
                                          appConfigurationFile: readsConfiguration ? appConfigURL.path : nil)
        let summary = try context.mutate { sandbox in
            try sandbox.reload(catalog: catalog, configuration: configuration ?? sandbox.configuration,
                               source: source)
        }
        for warning in catalog.warnings { Output.error("warning: \(warning)") }
        if context.json {
            try context.printJSON(ReloadSummary(summary: summary, source: source))
        } else {
            var line = "Reloaded \(summary.products) products from \(source.storeKitFile)"
            if let file = source.appConfigurationFile { line += " and \(file)" }
            print(line + ".")
            if !summary.added.isEmpty { print("added:   \(summary.added.joined(separator: ", "))") }
            if !summary.removed.isEmpty { print("removed: \(summary.removed.joined(separator: ", "))") }
            if !summary.changed.isEmpty { print("changed: \(summary.changed.joined(separator: ", "))") }
        }
        return ExitCode.ok
    }

    private struct ReloadSummary: Encodable {
        var products: Int
        var added: [String]
        var removed: [String]
        var changed: [String]
        var storeKitFile: String
        var appConfigurationFile: String?

        init(summary: SandboxReload, source: SandboxCatalogSource) {
            products = summary.products
            added = summary.added
            removed = summary.removed
            changed = summary.changed
            storeKitFile = source.storeKitFile
            appConfigurationFile = source.appConfigurationFile
        }
    }
}
