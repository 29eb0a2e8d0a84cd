import Foundation
import TallyCore
import TallyCrypto
import TallyLocking
import TallyStorage

/// One version of the offerings document as a server runs it: the document, the rules its mapping makes with the
/// catalog, the fingerprint kept states must carry under them, and what `GET /v1/offerings` answers from it.
/// Immutable: a new version is a new snapshot, so a request that holds one sees one consistent set of rules (a class,
/// so handing it to a request is one reference, not a copy of each of its parts).
final class OfferingsSnapshot: Sendable {
    /// The saved version; nil: the store was never read (it failed), and this is the configuration's own mapping.
    let saved: SavedOfferings?
    /// The document.
    let document: OfferingsDocument
    /// The catalog's rules under the document's mapping.
    let rules: CatalogRules
    /// What a kept encoded state must have been computed with (``CustomerDocument/format`` and ``rules``), hashed.
    let fingerprint: String
    /// How states are computed, kept and restated under ``rules``.
    let encoding: StateEncoding
    /// The `offerings` array every answer carries, encoded once.
    let offeringsJSON: [UInt8]
    /// The first 16 hex digits of the SHA-256 of the document's bytes: part of every ETag, so two stores' version
    /// 3 never share one.
    let documentTag: String

    /// `"<documentTag>-<version>-`: every ETag of this snapshot's answers starts with it.
    let etagPrefix: String

    /// Answers built from this snapshot, by exactly what was chosen (ids compared as bytes), for the placements the
    /// document names (and none) only: a client's own placement string is answered but never kept, so a client can
    /// neither grow this nor put an answer where another request finds it.
    private let answers = Locked<[AnswerKey: [UInt8]]>([:])
    /// The most answers kept (a document's placements, offerings and arms multiply).
    static let maximumAnswers = 1_024
    /// The placements the document names (in `placements` or a rule).
    private let knownPlacements: Set<UTF8Key>

    /// What an answer is built from besides the snapshot.
    struct AnswerKey: Hashable, Sendable {
        var current: UTF8Key?, placement: UTF8Key?, experiment: UTF8Key?, arm: UTF8Key?
    }

    /// The answer for `current`, `placement` and `experiment`, built by `build` the first time for a known placement.
    func answer(current: String?, placement: String?, experiment: ExperimentAssignment?, build: () -> [UInt8]) -> [UInt8] {
        guard placement.map({ knownPlacements.contains(UTF8Key($0)) }) ?? true else { return build() }
        let key = AnswerKey(current: current.map(UTF8Key.init), placement: placement.map(UTF8Key.init),
                            experiment: experiment.map { UTF8Key($0.id) }, arm: experiment.map { UTF8Key($0.arm) })
        if let known = answers.withLock({ $0[key] }) { return known }
        let body = build()
        answers.withLock { if $0.count < Self.maximumAnswers { $0[key] = body } }
        return body
    }

    /// The version number; 0 for the configuration's own mapping.
    var version: Int64 { saved?.version ?? 0 }

    /// Builds the snapshot of `document` (saved as `saved`) over `catalog`, with `bundleId` from `tally.json`.
    init(saved: SavedOfferings?, document: OfferingsDocument, catalog: Catalog, bundleId: String) {
        self.saved = saved
        self.document = document
        rules = CatalogRules(catalog: catalog, configuration: document.appConfiguration(bundleId: bundleId))
        fingerprint = Self.hex(ECDSA.sha256(Array((CustomerDocument.format + "\n" + rules.fingerprint).utf8)))
        encoding = EntitlementAPI.stateEncoding(rules: rules, fingerprint: fingerprint)
        offeringsJSON = JSONTree.array(document.offerings.map(OfferingsDocument.tree)).canonicalBytes()
        documentTag = String(Self.hex(ECDSA.sha256(saved?.document ?? document.jsonBytes())).prefix(16))
        etagPrefix = "\"\(documentTag)-\(saved?.version ?? 0)-"
        knownPlacements = Set(document.placements.keys.map(UTF8Key.init) + document.targeting.compactMap(\.placement).map(UTF8Key.init))
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
