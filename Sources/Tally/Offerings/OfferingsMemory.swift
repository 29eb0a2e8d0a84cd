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
    /// The last answer given per placement, and the customer (the link's `appUserId`; nil without a link) it was
    /// given for.
    var shown: [Key: (appUserId: String?, answer: StoreOfferings)] = [:]
    /// When each placement was last asked of the server: the system's uptime (monotonic; Swift's clocks need iOS 16).
    var askedAt: [Key: TimeInterval] = [:]

    /// Now, as ``askedAt`` counts it.
    static var now: TimeInterval { ProcessInfo.processInfo.systemUptime }
    /// Skipped packages already reported in ``Store/diagnostics`` (each once per process).
    var reportedSkips: Set<SkippedPackage> = []

    static func key(_ placement: String?) -> Key { placement.map(UTF8Key.init) }

    /// The last answer given for `placement` to `appUserId` (compared as bytes): an answer given to a customer
    /// switched away from is not this one's (its experiment arm and targeting were that customer's).
    func last(_ placement: Key, for appUserId: String?) -> StoreOfferings? {
        guard let shown = shown[placement], (shown.appUserId == nil) == (appUserId == nil),
              (shown.appUserId ?? "").hasSameBytes(as: appUserId ?? "") else { return nil }
        return shown.answer
    }

    /// Keeps `answer` as the last one for its placement, given to `appUserId`; returns the one it replaces when
    /// it was given to the same customer.
    mutating func remember(_ answer: StoreOfferings, for appUserId: String?) -> StoreOfferings? {
        let key = Self.key(answer.placement)
        if shown[key] == nil, shown.count >= Self.maximumPlacements,
           let oldest = askedAt.min(by: { $0.value < $1.value })?.key {
            shown[oldest] = nil
            askedAt[oldest] = nil
        }
        let before = last(key, for: appUserId)
        shown[key] = (appUserId, answer)
        return before
    }

    /// Whether `placement` was asked of the server less than `interval` seconds ago.
    func askedRecently(_ placement: Key, within interval: TimeInterval) -> Bool {
        guard interval > 0, let asked = askedAt[placement] else { return false }
        return Self.now - asked < interval
    }
}
