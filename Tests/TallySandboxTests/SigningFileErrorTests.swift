import Foundation
import Testing
@testable import TallySandbox

/// A damaged authority directory gives a `SigningError` naming the file, never a crash or a new CA.
@Suite struct SigningFileErrorTests {
    typealias Support = SigningTestSupport
    typealias Files = SandboxCertificateAuthority.FileName

    private func withAuthority(_ body: (URL) throws -> Void) throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try SandboxCertificateAuthority.generate(now: Date()).write(to: dir)
        try body(dir)
    }

    private func loadError(_ dir: URL) -> SigningError? {
        do {
            _ = try SandboxCertificateAuthority(directory: dir)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [Files.root, Files.intermediate, Files.leaf, Files.leafKey])
    func missingFileIsNamed(_ name: String) throws {
        try withAuthority { dir in
            try FileManager.default.removeItem(at: dir.appendingPathComponent(name))
            let error = try #require(loadError(dir))
            #expect(error.code == .missingFile)
            #expect(error.path == dir.appendingPathComponent(name).path)
            #expect(error.message.contains(name))
        }
    }

    @Test(arguments: [Files.root, Files.intermediate, Files.leaf, Files.leafKey, Files.rootKey])
    func corruptFileIsNamed(_ name: String) throws {
        try withAuthority { dir in
            try Data("-----BEGIN CERTIFICATE-----\nnot base64 at all\n".utf8)
                .write(to: dir.appendingPathComponent(name))
            let error = try #require(loadError(dir))
            #expect(error.code == .corruptFile)
            #expect(error.message.contains(name))
        }
    }

    @Test func leafKeyFromAnotherAuthorityIsRejected() throws {
        try withAuthority { dir in
            let other = try Support.temporaryDirectory()
            defer { Support.remove(other) }
            try SandboxCertificateAuthority.generate(now: Date()).write(to: other)
            try FileManager.default.removeItem(at: dir.appendingPathComponent(Files.leafKey))
            try FileManager.default.copyItem(
                at: other.appendingPathComponent(Files.leafKey), to: dir.appendingPathComponent(Files.leafKey))
            let error = try #require(loadError(dir))
            #expect(error.code == .corruptFile)
            #expect(error.message.contains(Files.leafKey))
        }
    }

    @Test func intermediateFromAnotherAuthorityIsRejected() throws {
        try withAuthority { dir in
            let other = try SandboxCertificateAuthority.generate(now: Date())
            try Data(other.intermediatePEM.utf8).write(to: dir.appendingPathComponent(Files.intermediate))
            let error = try #require(loadError(dir))
            #expect(error.code == .corruptFile)
            #expect(error.message.contains(Files.leaf) || error.message.contains(Files.intermediate))
        }
    }

    @Test func loadOrGenerateDoesNotReplaceADamagedAuthority() throws {
        try withAuthority { dir in
            let root = try Data(contentsOf: dir.appendingPathComponent(Files.root))
            try FileManager.default.removeItem(at: dir.appendingPathComponent(Files.leaf))
            #expect(throws: SigningError.self) { try SandboxCertificateAuthority.loadOrGenerate(in: dir, now: Date()) }
            #expect(try Data(contentsOf: dir.appendingPathComponent(Files.root)) == root)
        }
    }
}
