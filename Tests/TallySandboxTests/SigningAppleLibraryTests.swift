import Foundation
import TallyCore
import Testing
@testable import TallySandbox

/// Apple's own app-store-server-library (Python), trusting only the sandbox root, accepts what the
/// sandbox signs. Needs `pip install app-store-server-library`; set `TALLY_SKIP_APPLE_LIBRARY=1`
/// to skip where Python is unavailable.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CI"] == "true"
                || ProcessInfo.processInfo.environment["TALLY_SKIP_APPLE_LIBRARY"] != "1",
                "TALLY_SKIP_APPLE_LIBRARY=1 (ignored under CI=true)"))
struct SigningAppleLibraryTests {
    typealias Support = SigningTestSupport

    static let bundleId = "com.example.tally"
    private let now = Date(millisecondsSince1970: Date().millisecondsSince1970)

    /// The script's decoded answer.
    struct Answer: Decodable {
        struct Result: Decodable {
            var kind: String
            var ok: Bool
            var status: String?
            var payload: [String: JSONValue]?
        }
        var libraryVersion: String?
        var results: [Result]?
        var error: String?
    }

    /// Thrown after recording why Apple's library could not be run.
    struct AppleLibraryUnavailable: Error {}

    /// Runs `verify_with_apple.py` trusting `root`; fails the test (never skips) when the library is missing.
    private func verify(root: Data, _ pairs: [(String, String)]) throws -> Answer {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let rootPath = dir.appendingPathComponent("root.der")
        try root.write(to: rootPath)
        let script = Support.folder.appendingPathComponent("verify_with_apple.py").path
        let out = try Support.run(["python3", script, rootPath.path, Self.bundleId] + pairs.flatMap { [$0.0, $0.1] })
        guard out.status != 3, let answer = try? JSONDecoder().decode(Answer.self, from: Data(out.stdout.utf8)) else {
            Issue.record("""
                Apple's library could not be run (exit \(out.status)): \(out.stdout)\(out.stderr)
                Run `pip install app-store-server-library` (Python 3), or set TALLY_SKIP_APPLE_LIBRARY=1 to skip.
                """)
            throw AppleLibraryUnavailable()
        }
        return answer
    }

    @Test func appleLibraryVerifiesTransactionAndRenewalInfo() throws {
        let authority = try SandboxCertificateAuthority.generate(now: now)
        let signer = try authority.signer()
        let transaction = Support.sampleTransaction(bundleId: Self.bundleId, now: now)
        let info = Support.sampleRenewalInfo(now: now)
        let answer = try verify(root: authority.rootDER, [
            ("transaction", try signer.signTransaction(transaction)),
            ("renewal", try signer.signRenewalInfo(info)),
        ])
        let results = try #require(answer.results, "\(answer.error ?? "no results")")
        try #require(results.count == 2)
        #expect(results.allSatisfy { $0.ok }, "\(results.map { $0.status ?? "ok" })")
        let decoded = try #require(results[0].payload)
        #expect(decoded["transactionId"] == .string(transaction.transactionId))
        #expect(decoded["productId"] == .string(transaction.productId))
        #expect(decoded["bundleId"] == .string(Self.bundleId))
        #expect(decoded["environment"] == .string("Sandbox"))
        let renewal = try #require(results[1].payload)
        #expect(renewal["originalTransactionId"] == .string(info.originalTransactionId))
        #expect(renewal["autoRenewProductId"] == .string(info.productId))
    }

    @Test func appleLibraryRejectsAnotherRoot() throws {
        let signer = try SandboxCertificateAuthority.generate(now: now).signer()
        let stranger = try SandboxCertificateAuthority.generate(now: now)
        let jws = try signer.signTransaction(Support.sampleTransaction(bundleId: Self.bundleId, now: now))
        let results = try #require(try verify(root: stranger.rootDER, [("transaction", jws)]).results)
        #expect(results.first?.ok == false)
        #expect(results.first?.status == "VERIFICATION_FAILURE")
    }

    @Test func appleLibraryRejectsATamperedPayload() throws {
        let authority = try SandboxCertificateAuthority.generate(now: now)
        let signer = try authority.signer()
        let jws = try signer.signTransaction(Support.sampleTransaction(bundleId: Self.bundleId, now: now))
        var other = Support.sampleTransaction(bundleId: Self.bundleId, now: now)
        other.price = 1
        let forged = try signer.signTransaction(other).split(separator: ".")[1]
        let parts = jws.split(separator: ".")
        let tampered = [parts[0], forged, parts[2]].joined(separator: ".")
        let results = try #require(try verify(root: authority.rootDER, [("transaction", tampered)]).results)
        #expect(results.first?.ok == false)
    }
}
