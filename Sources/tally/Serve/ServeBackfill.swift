import Foundation
import TallyServer

/// `tally serve backfill --data DIR --config FILE --since DATE [--json]`: pulls the App Store's notification
/// history from where the last back-fill stopped (never before DATE) and applies it, printing a line per page;
/// run it while no `tally serve` uses DIR. Stopped halfway, the next run resumes where it stopped.
enum ServeBackfill {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, flags: ["json"], options: ["data", "config", "since"])
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        guard let data = arguments.value("data") else { throw UsageError("missing --data DIR") }
        guard let configPath = arguments.value("config") else { throw UsageError("missing --config FILE") }
        guard let text = arguments.value("since"), let since = ISO8601DateFormatter().date(from: text) else {
            throw UsageError("missing or bad --since DATE (ISO 8601, such as 2026-11-01T00:00:00Z)")
        }
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration(contentsOf: URL(fileURLWithPath: configPath))
        } catch {
            Output.error("tally serve backfill: \(error.description)")
            return ExitCode.usage
        }
        let api: EntitlementAPI
        do {
            let store = try ServeStore.open(configuration, data: data, readers: 1)
            api = try EntitlementAPI(configuration: configuration, store: store,
                                     clock: try ServerClock.configured(for: configuration))
        } catch {
            Output.error("tally serve backfill: \(error)")
            return ExitCode.refused
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
