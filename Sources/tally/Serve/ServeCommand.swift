import Dispatch
import Foundation
import TallyHTTP
import TallyServer
import TallyStorage

/// `tally serve --data DIR --config FILE [--listen HOST:PORT]` and `tally serve key …`.
enum ServeCommand {
    /// Runs the server until SIGINT or SIGTERM, or a `serve` subcommand; returns the exit code.
    static func run(_ words: [String]) -> Int32 {
        if words.contains("--help") || words.contains("-h") || words.first == "help" {
            print(words.first == "key" ? ServeHelp.key : words.first == "customer-token" ? ServeHelp.customerToken
                : words.first == "signing-key" ? ServeHelp.signingKey : ServeHelp.text)
            return ExitCode.ok
        }
        do {
            if words.first == "key" { return try ServeKey.run(Array(words.dropFirst())) }
            if words.first == "customer-token" { return try ServeCustomerToken.run(Array(words.dropFirst())) }
            if words.first == "signing-key" { return try ServeSigningKey.run(Array(words.dropFirst())) }
            if words.first == "reconcile" { return try ServeReconcile.run(Array(words.dropFirst())) }
            if words.first == "backfill" { return try ServeBackfill.run(Array(words.dropFirst())) }
            return try serve(words)
        } catch let error as UsageError {
            Output.error("tally serve: \(error.message)")
            let usage = switch words.first {
            case "key": ServeHelp.keyUsage
            case "customer-token": ServeHelp.customerTokenUsage
            case "signing-key": ServeHelp.signingKeyUsage
            case "reconcile": ServeHelp.reconcileUsage
            case "backfill": ServeHelp.backfillUsage
            default: ServeHelp.usage
            }
            Output.error("usage: \(usage)")
            return ExitCode.usage
        } catch {
            Output.error("tally serve: \(error)")
            return ExitCode.refused
        }
    }

    private static func serve(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, flags: ["access-log"], options: ["data", "config", "listen"])
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        guard let data = arguments.value("data") else { throw UsageError("missing --data DIR") }
        guard let configPath = arguments.value("config") else { throw UsageError("missing --config FILE") }
        var listen: ListenAddress?
        if let text = arguments.value("listen") {
            guard let address = ListenAddress(text) else {
                throw UsageError("--listen must be HOST:PORT, such as 127.0.0.1:8080 (port 0 picks a free one)")
            }
            listen = address
        }
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration(contentsOf: URL(fileURLWithPath: configPath))
        } catch {
            Output.error("tally serve: \(error.description)")
            return ExitCode.usage
        }
        if let warning = OpenFileLimit.raise(toFit: configuration.limits.maxConnections) {
            Output.error("tally serve: \(warning)")
        }
        if let url = configuration.sandboxClockURL {
            Output.error("tally serve: warning: the clock follows the sandbox at \(url.absoluteString) (clock.sandboxURL); "
                + "for tests and demos only, never in production")
        }
        // Installed before the server starts, so a signal during start-up still ends in a clean stop.
        let stop = SignalWait(signals: [SIGINT, SIGTERM])
        let server: EntitlementServer
        do throws(EntitlementServerError) {
            let store: any CustomerStore
            do throws(CustomerStoreError) {
                store = try ServeStore.open(configuration, data: data, readers: configuration.threads)
            } catch {
                throw EntitlementServerError.store(error)
            }
            server = try EntitlementServer(configuration: configuration, store: store, listen: listen,
                                           accessLog: arguments.flag("access-log") ? EntitlementServer.standardErrorLog : nil)
        } catch {
            Output.error("tally serve: \(error.description)")
            return error.isConfigurationProblem ? ExitCode.usage : ExitCode.refused
        }
        // Written straight to the file descriptor (no stdio buffer), so a pipe sees it at once.
        FileHandle.standardOutput.write(Data("tally serve: listening on http://\(server.address)\n".utf8))
        stop.wait()
        // Stops accepting, lets the requests in flight finish (at most limits.shutdownGraceSeconds), then exits 0.
        server.stop()
        return ExitCode.ok
    }
}
