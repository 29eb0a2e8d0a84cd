import Foundation

/// `tally-delivery-harness`: buys through the engine over a sandbox directory, for the crash-delivery tests.
///
///     tally-delivery-harness init SANDBOX_DIR
///     tally-delivery-harness buy SANDBOX_DIR APP_DIR PRODUCT
///     tally-delivery-harness state SANDBOX_DIR APP_DIR
///
/// `buy` and `state` take `--server URL --key PUBLIC_KEY --user ID` last to link the engine to a `tally serve`.
/// They print one JSON line: `{"coins":10,"localCoins":10,"premium":false,"source":"local","transactions":1,
/// "unfinished":0}`.
/// With `TALLY_DELIVERY_PAUSE=<step>` (received, written, posted, finished, emitted) the engine's delivery observer
/// prints `PAUSED <step> <transactionId>` and blocks at that step, so a parent can SIGKILL the process there.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    let command = try HarnessCommand(arguments: arguments)
    let pause = try PauseObserver(environment: ProcessInfo.processInfo.environment)
    try await command.run(pause: pause)
    exit(0)
} catch {
    FileHandle.standardError.write(Data("tally-delivery-harness: \(error)\n".utf8))
    exit(error.exitStatus)
}
