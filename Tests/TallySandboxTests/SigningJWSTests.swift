import Foundation
import TallyCore
import Testing
@testable import TallySandbox

/// The compact JWS the sandbox signs: Apple's header, the model's JSON, a raw r‖s ES256 signature.
@Suite struct SigningJWSTests {
    typealias Support = SigningTestSupport

    private let now = Date(millisecondsSince1970: Date().millisecondsSince1970)

    @Test func transactionJWSHasApplesShapeAndDecodesBack() throws {
        let authority = try SandboxCertificateAuthority.generate(now: now)
        let transaction = Support.sampleTransaction(bundleId: "com.example.tally", now: now)
        let jws = try authority.signer().signTransaction(transaction)
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        #expect(!jws.contains("="))

        let headerData = try #require(Support.base64URLDecode(parts[0]))
        let header = try #require(try JSONSerialization.jsonObject(with: headerData) as? [String: Any])
        #expect(Set(header.keys) == ["alg", "x5c"])
        #expect(header["alg"] as? String == "ES256")
        let x5c = try #require(header["x5c"] as? [String])
        #expect(x5c.count == 3)
        #expect(x5c.map { Data(base64Encoded: $0) } == [authority.leafDER, authority.intermediateDER, authority.rootDER])

        let payload = try #require(Support.base64URLDecode(parts[1]))
        #expect(try JSONDecoder().decode(StoreTransaction.self, from: payload) == transaction)
        let fields = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        #expect(fields["signedDate"] as? Int64 == now.millisecondsSince1970)
        #expect(fields["environment"] as? String == "Sandbox")
        #expect(try #require(Support.base64URLDecode(parts[2])).count == 64)
    }

    @Test func renewalInfoDecodesBack() throws {
        let authority = try SandboxCertificateAuthority.generate(now: now)
        let info = Support.sampleRenewalInfo(now: now)
        let jws = try authority.signer().signRenewalInfo(info)
        let payload = try #require(Support.base64URLDecode(jws.split(separator: ".")[1]))
        #expect(try JSONDecoder().decode(RenewalInfo.self, from: payload) == info)
    }

    @Test func opensslVerifiesTheSignatureWithTheLeafKey() throws {
        let dir = try Support.temporaryDirectory()
        defer { Support.remove(dir) }
        let authority = try SandboxCertificateAuthority.generate(now: now)
        let jws = try authority.signer().signTransaction(Support.sampleTransaction(bundleId: "com.example.tally", now: now))
        let cut = try #require(jws.lastIndex(of: "."))
        let signature = try #require(Support.base64URLDecode(jws[jws.index(after: cut)...]))

        let leaf = dir.appendingPathComponent("leaf.pem"), pub = dir.appendingPathComponent("leaf-pub.pem")
        let input = dir.appendingPathComponent("input"), sig = dir.appendingPathComponent("sig.der")
        try Data(authority.leafPEM.utf8).write(to: leaf)
        try Data(jws[..<cut].utf8).write(to: input)
        try Support.derSignature(raw: signature).write(to: sig)
        let extract = try Support.run(["openssl", "x509", "-in", leaf.path, "-pubkey", "-noout", "-out", pub.path])
        #expect(extract.status == 0, "\(extract.stderr)")

        let verify = { () throws -> Support.Output in
            try Support.run(["openssl", "dgst", "-sha256", "-verify", pub.path, "-signature", sig.path, input.path])
        }
        let good = try verify()
        #expect(good.status == 0 && good.stdout.contains("Verified OK"), "\(good.stdout)\(good.stderr)")

        try Data((jws[..<cut] + "x").utf8).write(to: input)
        #expect(try verify().status != 0, "a changed signing input must not verify")
    }

    @Test func signaturesDifferButHeaderIsStable() throws {
        let signer = try SandboxCertificateAuthority.generate(now: now).signer()
        let transaction = Support.sampleTransaction(bundleId: "com.example.tally", now: now)
        let a = try signer.signTransaction(transaction), b = try signer.signTransaction(transaction)
        #expect(a.split(separator: ".")[0] == b.split(separator: ".")[0])
        #expect(a.split(separator: ".")[1] == b.split(separator: ".")[1])
        #expect(a != b, "ECDSA signatures are randomized")
    }

    @Test func concurrentSigningProducesValidPayloads() async throws {
        let signer = try SandboxCertificateAuthority.generate(now: now).signer()
        let base = Support.sampleTransaction(bundleId: "com.example.tally", now: now)
        let results = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for i in 0..<32 {
                var transaction = base
                transaction.transactionId = "\(2_000_000_000_000_100 + i)"
                group.addTask { [transaction] in (transaction.transactionId, try signer.signTransaction(transaction)) }
            }
            return try await group.reduce(into: [(String, String)]()) { $0.append($1) }
        }
        #expect(results.count == 32)
        for (id, jws) in results {
            let payload = try #require(Support.base64URLDecode(jws.split(separator: ".")[1]))
            #expect(try JSONDecoder().decode(StoreTransaction.self, from: payload).transactionId == id)
        }
    }
}
