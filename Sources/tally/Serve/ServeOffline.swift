import Foundation
import TallyServer

/// What `tally serve backfill` and `tally serve reconcile` share: `--data DIR --config FILE` read, the
/// configuration loaded and the API built over its store, without HTTP (while no `tally serve` uses DIR).
enum ServeOffline {
    /// `--data DIR` and `--config FILE`, both required.
    static func paths(_ arguments: Arguments) throws(UsageError) -> (data: String, config: String) {
        guard let data = arguments.value("data") else { throw UsageError("missing --data DIR") }
        guard let config = arguments.value("config") else { throw UsageError("missing --config FILE") }
        return (data, config)
    }

    /// The API over `paths`, or the exit code after the error was printed for `command` (2 for a bad
    /// configuration, 3 when the store or the clock cannot be opened).
    static func api(_ paths: (data: String, config: String), command: String) -> Result<EntitlementAPI, ExitStatus> {
        let data = paths.data, configPath = paths.config
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration(contentsOf: URL(fileURLWithPath: configPath))
        } catch {
            Output.error("tally serve \(command): \(error.description)")
            return .failure(ExitStatus(ExitCode.usage))
        }
        do {
            let store = try ServeStore.open(configuration, data: data, readers: 1)
            return .success(try EntitlementAPI(configuration: configuration, store: store,
                                               clock: try ServerClock.configured(for: configuration)))
        } catch {
            Output.error("tally serve \(command): \(error)")
            return .failure(ExitStatus(ExitCode.refused))
        }
    }

    /// An exit code as an `Error`, so it can travel in a `Result`.
    struct ExitStatus: Error {
        let code: Int32
        init(_ code: Int32) { self.code = code }
    }
}
