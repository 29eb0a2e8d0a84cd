import Foundation

/// Dates as the API writes them: ISO 8601 in UTC with milliseconds (`2026-11-30T05:00:00.000Z`),
/// formatted in integer arithmetic (no `DateFormatter` on the hot path).
public enum ISO8601Milliseconds {
    /// The text of `date`, rounded to the millisecond.
    public static func string(_ date: Date) -> String {
        let milliseconds = date.millisecondsSince1970
        let (days, dayMilliseconds) = floorDivision(milliseconds, 86_400_000)
        let civil = CivilDate.components(ofDay: Int(days))
        let seconds = dayMilliseconds / 1000
        return pad(civil.year, 4) + "-" + pad(civil.month, 2) + "-" + pad(civil.day, 2) + "T"
            + pad(Int(seconds / 3600), 2) + ":" + pad(Int(seconds / 60 % 60), 2) + ":" + pad(Int(seconds % 60), 2)
            + "." + pad(Int(dayMilliseconds % 1000), 3) + "Z"
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor, remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
