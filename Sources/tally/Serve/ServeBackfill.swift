import Foundation
import TallyServer

/// `tally serve backfill --data DIR --config FILE --since DATE [--json]`: pulls the App Store's notification
/// history from where the last back-fill stopped (never before DATE) and applies it, printing a line per page;
/// run it while no `tally serve` uses DIR. Stopped halfway, the next run resumes where it stopped.
enum ServeBackfill {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, flags: ["json"], options: ["data", "config", "since"])
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        let paths = try ServeOffline.paths(arguments)
        guard let text = arguments.value("since"), let since = ISO8601DateFormatter().date(from: text) else {
            throw UsageError("missing or bad --since DATE (ISO 8601, such as 2026-11-01T00:00:00Z)")
        }
        let api: EntitlementAPI
        switch ServeOffline.api(paths, command: "backfill") {
        case .success(let built): api = built
        case .failure(let status): return status.code
        }
        let json = arguments.flag("json")
        let result: BackfillProgress
        do {
            result = try api.backfill(since: since) { progress in
                guard !json else { return }
                print("page \(progress.pages): \(progress.notifications) notifications, \(progress.applied) applied, "
                    + "\(progress.duplicates) duplicates, \(progress.other) other")
            }
        } catch {
            Output.error("tally serve backfill: \(error.description)")
            if case .notConfigured = error { return ExitCode.usage }
            return ExitCode.refused
        }
        if json {
            let summary = ["pages": result.pages, "notifications": result.notifications, "applied": result.applied,
                           "duplicates": result.duplicates, "other": result.other]
            print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
        } else {
            print("back-filled: \(result.pages) pages, \(result.notifications) notifications, \(result.applied) applied, "
                + "\(result.duplicates) duplicates, \(result.other) other")
        }
        return ExitCode.ok
    }
}
