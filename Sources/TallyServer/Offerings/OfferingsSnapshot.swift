import Foundation
import TallyCore
import TallyCrypto

/// One version of the offerings document as a server runs it: the document, the rules its mapping makes with the
/// catalog, the fingerprint kept states must carry under them, and what `GET /v1/offerings` answers from it.
/// Immutable: a new version is a new snapshot, so a request that holds one sees one consistent set of rules.
struct OfferingsSnapshot: Sendable {
    /// The saved version; nil: the store was never read (it failed), and this is the configuration's own mapping.
    let saved: SavedOfferings?
    /// The document.
    let document: OfferingsDocument
    /// The catalog's rules under the document's mapping.
    let rules: CatalogRules
    /// What a kept encoded state must have been computed with (``CustomerJSON/format`` and ``rules``), hashed.
    let fingerprint: String
    /// How states are computed, kept and restated under ``rules``.
    let encoding: StateEncoding
    /// The `offerings` array every answer carries, encoded once.
    let offeringsJSON: [UInt8]
    /// The first 16 hex digits of the SHA-256 of the document's bytes: part of every ETag, so two stores' version
    /// 3 never share one.
    let documentTag: String

    /// The version number; 0 for the configuration's own mapping.
    var version: Int64 { saved?.version ?? 0 }

    /// Builds the snapshot of `document` (saved as `saved`) over `catalog`, with `bundleId` from `tally.json`.
    init(saved: SavedOfferings?, document: OfferingsDocument, catalog: Catalog, bundleId: String) {
        self.saved = saved
        self.document = document
        rules = CatalogRules(catalog: catalog, configuration: document.appConfiguration(bundleId: bundleId))
        fingerprint = Self.hex(ECDSA.sha256(Array((CustomerJSON.format + "\n" + rules.fingerprint).utf8)))
        encoding = EntitlementAPI.stateEncoding(rules: rules, fingerprint: fingerprint)
        offeringsJSON = JSONTree.array(document.offerings.map(OfferingsDocument.tree)).canonicalBytes()
        documentTag = String(Self.hex(ECDSA.sha256(saved?.document ?? document.jsonBytes())).prefix(16))
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
