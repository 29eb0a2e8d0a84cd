import Foundation
import Tally
import Testing

/// `tally --version` prints the package's one version constant, `Tally.version`, in semantic versioning's form.
struct VersionCLITests {
    @Test func versionPrintsTallyVersionAndExitsZero() throws {
        for spelling in ["--version", "version"] {
            let out = try TallyProcess.run([spelling])
            #expect(out.status == 0, "\(spelling): \(out.stderr)")
            #expect(out.stdout == "tally \(Tally.version)\n", "\(spelling)")
            #expect(out.stderr.isEmpty)
        }
    }

    @Test func theVersionIsMajorMinorPatch() {
        let parts = Tally.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(Tally.version)")
    }

    /// `Tally.version` is a module-level name, so `Tally.Store` still names the engine's type.
    @Test func tallyQualifiedNamesStillResolve() {
        let type: Any.Type = Tally.Store.self
        #expect(String(describing: type) == "Store")
    }

    @Test func helpListsVersion() throws {
        let out = try TallyProcess.run(["help"])
        #expect(out.status == 0 && out.stdout.contains("tally --version"))
    }
}
