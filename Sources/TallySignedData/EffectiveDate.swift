import Foundation

/// The time certificates are judged at, with the words a failure detail uses for it.
package struct EffectiveDate: Sendable {
    package var date: Date
    /// What the date is: "signedDate", "current time", "given date".
    package var source: String

    package init(date: Date, source: String) {
        self.date = date
        self.source = source
    }

    /// e.g. "signedDate 2024-02-02", "current time 2026-11-30"; formatted only when a failure needs it.
    package var label: String { "\(source) \(Self.day(date))" }

    /// Resolves `policy` (nil = Apple's rule) for a payload's claims.
    package static func resolve(_ policy: EffectiveDatePolicy?, onlineChecks: Bool, claims: SignedClaims) -> EffectiveDate {
        switch policy ?? (onlineChecks ? .now : .signedDate) {
        case .now:
            return now()
        case .fixed(let date):
            return EffectiveDate(date: date, source: "given date")
        case .signedDate:
            guard let (name, milliseconds) = claims.signingMilliseconds, milliseconds.isFinite else { return now() }
            // Apple's Python library: int(signedDate) // 1000, whole seconds.
            let date = Date(timeIntervalSince1970: (milliseconds / 1000).rounded(.down))
            return EffectiveDate(date: date, source: name)
        }
    }

    package static func now() -> EffectiveDate {
        EffectiveDate(date: Date(), source: "current time")
    }

    /// `yyyy-MM-dd` in UTC.
    package static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}

/// The time at which certificate validity is judged.
public enum EffectiveDatePolicy: Sendable, Hashable {
    /// The payload's own `signedDate` (or `receiptCreationDate`); the current time when it has none.
    case signedDate
    /// The current time.
    case now
    /// A fixed time given by the caller.
    case fixed(Date)
}
