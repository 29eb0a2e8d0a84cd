/// The files a sandbox's catalog and app configuration were read from, kept so `tally sandbox reload` reads
/// them again: absolute paths, as given to `tally sandbox init` (or to the last reload naming other files).
public struct SandboxCatalogSource: Sendable, Hashable, Codable {
    /// The `.storekit` file.
    public var storeKitFile: String
    /// The `tally.json` read with it; nil when none was (the configuration was the default one).
    public var appConfigurationFile: String?

    /// A source naming the `.storekit` file and the `tally.json` read with it, if any.
    public init(storeKitFile: String, appConfigurationFile: String?) {
        self.storeKitFile = storeKitFile
        self.appConfigurationFile = appConfigurationFile
    }
}
