import Foundation
import TallyCore

/// The offerings document's start and refresh (`offerings` in `tally-server.json`, docs/server.md *Offerings*).
public struct OfferingsSettings: Sendable {
    /// The document a store holding none is seeded with (`offerings.file`, read and checked at start), its mapping
    /// replaced by `tally.json`'s; nil: the seed holds `tally.json`'s mapping and no offerings.
    public var seed: OfferingsDocument?
    /// How stale this server's copy of the live document may be, in seconds (`offerings.refreshSeconds`, default 5):
    /// a save on another server of the same database is seen within it; this server's own saves at once.
    public var refreshSeconds: Int = 5

    /// The defaults: no seed file, a 5-second refresh.
    public init(seed: OfferingsDocument? = nil, refreshSeconds: Int = 5) {
        self.seed = seed
        self.refreshSeconds = refreshSeconds
    }
}

extension ServerConfiguration {
    static let offeringsKeys = ["file", "refreshSeconds"]

    /// `offerings`: the seed file (validated against the catalog now, so a bad file stops the start) and the refresh.
    static func loadOfferings(_ node: JSONCursor?, catalog: Catalog?, app: AppConfiguration?,
                              reader: inout ConfigurationReader) -> OfferingsSettings {
        var settings = OfferingsSettings()
        guard let node, let members = reader.object(node, allowed: offeringsKeys) else { return settings }
        if let value = members["refreshSeconds"], let seconds = reader.integer(value, in: 0...86_400) {
            settings.refreshSeconds = Int(seconds)
        }
        if let value = members["file"], let file = reader.file(value) {
            do {
                let document = try OfferingsDocument(jsonData: file.data, fileName: file.url.lastPathComponent)
                if let catalog, let app {
                    let seed = document.replacingMapping(with: app)
                    try seed.validate(against: catalog, bundleId: app.bundleId)
                    settings.seed = seed
                }
            } catch {
                reader.problem("offerings.file", error.message)
            }
        }
        return settings
    }
}
