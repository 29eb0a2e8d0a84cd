import Foundation
import TallySandbox

/// `tally sandbox root [--der]`: the sandbox's root certificate, to give a verifier (`tally verify --root`).
enum SandboxRoot {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, flags: ["json", "der"], options: SandboxContext.commonOptions)
        let context = SandboxContext(arguments)
        let sandbox = try context.load()
        let authority = try SandboxCertificateAuthority.loadOrGenerate(in: context.url, now: sandbox.now)
        if arguments.flag("der") {
            FileHandle.standardOutput.write(authority.rootDER)
        } else {
            print(authority.rootPEM, terminator: authority.rootPEM.hasSuffix("\n") ? "" : "\n")
        }
        return ExitCode.ok
    }
}
