import Foundation
import TallyCore

/// What a store remembers of offerings in this process: the kept answers (read from `offerings-cache.json` at
/// first use), the last answer given per placement, and when each placement was last asked of the server.
struct OfferingsMemory: Sendable {
    /// The placements answered again at ``Store/refresh()``: at most this many, the least recently asked dropped.
    static let maximumPlacements = 16

    /// A placement as a key: nil for none, its UTF-8 bytes otherwise.
    typealias Key = UTF8Key?

    /// The kept answers; nil until first read.
    var cache: OfferingsCache?
    /// The last answer given per placement.
    var shown: [Key: StoreOfferings] = [:]
    /// When each placement was last asked of the server (monotonic).
    var askedAt: [Key: ContinuousClock.Instant] = [:]
    /// Skipped packages already reported in ``Store/diagnostics`` (each once per process).
    var reportedSkips: Set<SkippedPackage> = []

    static func key(_ placement: String?) -> Key { placement.map(UTF8Key.init) }

    /// Keeps `answer` as the last one for its placement; returns the one it replaces.
    mutating func remember(_ answer: StoreOfferings) -> StoreOfferings? {
        let key = Self.key(answer.placement)
        if shown[key] == nil, shown.count >= Self.maximumPlacements,
           let oldest = askedAt.min(by: { $0.value < $1.value })?.key {
            shown[oldest] = nil
            askedAt[oldest] = nil
        }
        return shown.updateValue(answer, forKey: key)
    }

    /// Whether `placement` was asked of the server less than `interval` seconds ago.
    func askedRecently(_ placement: Key, within interval: TimeInterval) -> Bool {
        guard interval > 0, let asked = askedAt[placement] else { return false }
        return asked.duration(to: .now) < .milliseconds(Int64(interval * 1000))
    }
}
