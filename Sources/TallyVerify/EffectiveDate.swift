import Foundation

/// The time certificates are judged at, with the words a failure detail uses for it.
struct EffectiveDate {
    var date: Date
    /// e.g. "signedDate 2024-02-02", "current time 2026-11-30".
    var label: String

    /// Resolves `policy` (nil = Apple's rule) for a payload's claims.
    static func resolve(_ policy: EffectiveDatePolicy?, onlineChecks: Bool, claims: SignedClaims) -> EffectiveDate {
        switch policy ?? (onlineChecks ? .now : .signedDate) {
        case .now:
            return now()
        case .fixed(let date):
            return EffectiveDate(date: date, label: "given date \(day(date))")
        case .signedDate:
            guard let (name, milliseconds) = claims.signingMilliseconds, milliseconds.isFinite else { return now() }
            // Apple's Python library: int(signedDate) // 1000, whole seconds.
            let date = Date(timeIntervalSince1970: (milliseconds / 1000).rounded(.down))
            return EffectiveDate(date: date, label: "\(name) \(day(date))")
        }
    }

    static func now() -> EffectiveDate {
        let date = Date()
        return EffectiveDate(date: date, label: "current time \(day(date))")
    }

    /// `yyyy-MM-dd` in UTC.
    static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}
