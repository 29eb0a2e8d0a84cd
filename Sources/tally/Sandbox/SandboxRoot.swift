import Foundation
import TallySandbox

/// `tally sandbox root`: the sandbox's root certificate (PEM), to give a verifier.
enum SandboxRoot {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        _ = try context.load()
        Output.error("tally sandbox root: this build does not sign yet")
        return ExitCode.refused
    }
}
