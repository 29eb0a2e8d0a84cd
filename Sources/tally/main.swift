import Foundation
import Tally
import TallyCrypto

/// `tally` — the command line over Tally. Each subcommand lives in its own `*Command.swift` file
/// and returns an exit code: 0 ok, 1 refused or failed, 2 usage error or bad input.
// First, before any OpenSSL call: servers' worker threads may still be ending when `exit` runs.
OpenSSLProcess.keepStateUntilExit()
let words = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch words.first {
case nil, "help", "--help", "-h":
    print(TallyHelp.text)
    status = ExitCode.ok
case "--version", "version":
    print("tally \(Tally.version)")
    status = ExitCode.ok
case "sandbox":
    status = SandboxCommand.run(Array(words.dropFirst()))
case "market":
    status = MarketCommand.run(Array(words.dropFirst()))
case "verify":
    status = VerifyCommand.run(Array(words.dropFirst()))
case "serve":
    status = ServeCommand.run(Array(words.dropFirst()))
default:
    Output.error("tally: unknown command '\(words[0])'. Run 'tally help'.")
    status = ExitCode.usage
}
exit(status)
