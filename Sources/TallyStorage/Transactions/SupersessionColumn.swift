import Foundation

/// How both stores keep TallyCore's `PeriodSupersession` marks in a transaction row: `superseded_from_ms`, the
/// milliseconds from which the row is superseded (``notSuperseded`` when it is not), and `superseded_by`, the
/// superseding transaction's id. A state at `now` reads the rows with `superseded_from_ms > cutoff(at: now)`.
public enum SupersessionColumn {
    /// `superseded_from_ms` of a row not superseded (the largest 64-bit integer, which sorts after every date).
    public static let notSuperseded = Int64.max

    /// The whole milliseconds at or before `now` (rounded down, never up): a row superseded from a moment after
    /// it is still read, since its superseding period is not yet purchased at `now`. With no date, every row.
    public static func cutoff(at now: Date?) -> Int64 {
        guard let now else { return Int64.min }
        return Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
