import Foundation

/// `tally-bench core|verify|engine|server|http|sandbox|sandbox-api|dashboard|webhooks|all`: measured speed, printed against the limits or a peer measured in the
/// same run. Run it in release: `swift run -c release tally-bench core`.
var arguments = Array(CommandLine.arguments.dropFirst())
/// `--store postgres` runs the server suite on PostgreSQL (two servers on one database) instead of SQLite.
var serverStore = "sqlite"
if let flag = arguments.firstIndex(of: "--store"), flag + 1 < arguments.count {
    serverStore = arguments[flag + 1]
    arguments.removeSubrange(flag...(flag + 1))
}
/// `--replica` (with `--store postgres`): the servers read from a streaming replica (`store.replicas`).
var serverReplica = false
if let flag = arguments.firstIndex(of: "--replica") {
    serverReplica = true
    arguments.remove(at: flag)
}
let suites = arguments.isEmpty || arguments == ["all"] ? ["core", "verify", "engine", "server"] : arguments
var exitStatus: Int32 = 0
#if DEBUG
print("note: this is a debug build; run 'swift run -c release tally-bench …' for meaningful numbers\n")
#endif
for suite in suites {
    switch suite {
    case "core":
        CoreBenchmark.run()
    case "verify":
        VerifyBenchmark.run()
    case "engine":
        if await !EngineBenchmark.run() { exitStatus = 1 }
    case "server":
        if serverStore == "postgres" && serverReplica {
            if !PostgresReplicaBenchmark.run() { exitStatus = 1 }
        } else if serverStore == "postgres" {
            if !PostgresServerBenchmark.run() { exitStatus = 1 }
        } else if !ServerBenchmark.run() {
            exitStatus = 1
        }
    case "http":
        if !HTTPLayerBenchmark.run() { exitStatus = 1 }
    case "sandbox":
        if !SandboxBenchmark.run() { exitStatus = 1 }
    case "sandbox-api":
        if !SandboxAPIBenchmark.run() { exitStatus = 1 }
    case "dashboard":
        if !DashboardBenchmark.run() { exitStatus = 1 }
    case "webhooks":
        if !WebhookPostBenchmark.run() { exitStatus = 1 }
    case "rules":
        CoreBenchmark.profileRules()
    default:
        FileHandle.standardError.write(Data("tally-bench: unknown suite '\(suite)'; use core, verify, engine, server, http, sandbox, sandbox-api, dashboard, webhooks, all or rules\n".utf8))
        exitStatus = 2
    }
}
exit(exitStatus)
