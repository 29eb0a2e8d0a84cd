import Foundation
import Testing
@testable import TallySandbox

/// The sandbox certificate authority: generation, storage, reload, and what OpenSSL's own tools see.
@Suite struct SigningAuthorityTests {
    typealias Support = SigningTestSupport
    typealias Files = SandboxCertificateAuthority.FileName

    @Test func writtenAuthorityReloadsIdentically() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let authority = try SandboxCertificateAuthority.generate(now: Date())
        try authority.write(to: dir)
        let reloaded = try SandboxCertificateAuthority(directory: dir)
        #expect(reloaded.rootPEM == authority.rootPEM)
        #expect(reloaded.rootDER == authority.rootDER)
        #expect(reloaded == authority)
        #expect(authority.rootPEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        let onDisk = try String(contentsOf: dir.appendingPathComponent(Files.root), encoding: .utf8)
        #expect(onDisk == authority.rootPEM)
    }

    @Test func privateKeysAreOwnerOnly() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try SandboxCertificateAuthority.generate(now: Date()).write(to: dir)
        for name in [Files.leafKey, Files.rootKey, Files.intermediateKey] {
            let attributes = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(name)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("ca").path)
            .filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func twoAuthoritiesHaveDifferentKeysAndSerials() throws {
        let a = try SandboxCertificateAuthority.generate(now: Date())
        let b = try SandboxCertificateAuthority.generate(now: Date())
        #expect(a.rootDER != b.rootDER)
        #expect(a.leafKeyPEM != b.leafKeyPEM)
    }

    @Test func certificatesCarryApplesMarkersAndConstraints() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try SandboxCertificateAuthority.generate(now: Date()).write(to: dir)
        let text = { (name: String) throws -> String in
            let out = try Support.run(["openssl", "x509", "-noout", "-text", "-in", dir.appendingPathComponent(name).path])
            #expect(out.status == 0, "\(out.stderr)")
            return out.stdout
        }
        let leaf = try text(Files.leaf), intermediate = try text(Files.intermediate), root = try text(Files.root)
        #expect(leaf.contains("1.2.840.113635.100.6.11.1"))
        #expect(!leaf.contains("1.2.840.113635.100.6.2.1"))
        #expect(intermediate.contains("1.2.840.113635.100.6.2.1"))
        #expect(!root.contains("1.2.840.113635.100.6"))
        #expect(leaf.contains("CA:FALSE") && intermediate.contains("CA:TRUE") && root.contains("CA:TRUE"))
        for body in [leaf, intermediate, root] {
            #expect(body.contains("ecdsa-with-SHA256"))
            #expect(body.contains("NIST CURVE: P-256"))
            #expect(body.contains("X509v3 Subject Key Identifier"))
        }
        #expect(leaf.contains("Subject: CN = Tally Sandbox Receipt Signing, O = Tally"))
        #expect(leaf.contains("Issuer: CN = Tally Sandbox WWDR Intermediate, O = Tally"))
        #expect(intermediate.contains("Issuer: CN = Tally Sandbox Root CA, O = Tally"))
    }

    @Test func opensslVerifiesTheChainStrictly() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        try SandboxCertificateAuthority.generate(now: Date()).write(to: dir)
        let path = { (name: String) in dir.appendingPathComponent(name).path }
        let out = try Support.run([
            "openssl", "verify", "-x509_strict", "-CAfile", path(Files.root),
            "-untrusted", path(Files.intermediate), path(Files.leaf),
        ])
        #expect(out.status == 0, "\(out.stdout)\(out.stderr)")
        #expect(out.stdout.hasSuffix(": OK\n"))
    }

    @Test func loadOrGenerateCreatesOnceThenReuses() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let first = try SandboxCertificateAuthority.loadOrGenerate(in: dir, now: Date())
        let second = try SandboxCertificateAuthority.loadOrGenerate(in: dir, now: Date())
        #expect(first.rootDER == second.rootDER)
    }
}
