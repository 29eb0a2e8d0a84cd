import Foundation
import Testing
import TallyCore
import TallyCrypto
import TallySandbox

extension ServerProcessTests {
    /// Signed transactions that do not verify are refused with Apple's reason, and store nothing.
    @Suite struct Verification {
        @Test func transactionsThatDoNotVerifyAre422WithAReason() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let (transaction, jws) = try market.buySigned("market.premium", account: "fay")

            let stranger = try SandboxCertificateAuthority.generate(now: Date())
            let otherRoot = try stranger.signer().signTransaction(transaction)
            let tampered = try JWSTampering.tampered(jws) { $0["productId"] = "market.removeads" }
            var otherApp = transaction
            otherApp.bundleId = "com.example.other"
            let otherBundle = try market.signed(otherApp)
            var production = transaction
            production.environment = .production
            let productionJWS = try market.signed(production)
            let withCrit = try Self.signedWithCrit(transaction, authority: fixture.authority, in: fixture.directory)

            let cases: [(String, String, String)] = [
                ("a JWS signed by another root", otherRoot, "VERIFICATION_FAILURE"),
                ("a JWS whose payload was changed", tampered, "VERIFICATION_FAILURE"),
                ("a JWS for another bundle id", otherBundle, "INVALID_APP_IDENTIFIER"),
                ("a Production JWS when only Sandbox is accepted", productionJWS, "INVALID_ENVIRONMENT"),
                ("a string that is not a JWS", "not.a.jws", "VERIFICATION_FAILURE"),
                ("a JWS whose header has crit, signed by the trusted chain", withCrit, "VERIFICATION_FAILURE"),
            ]
            for (what, signed, reason) in cases {
                let reply = try await client.postTransaction(signed, for: "fay")
                #expect(reply.status == 422, "\(what): \(reply)")
                let error = try reply.error()
                #expect(error["code"] as? String == "verification_failed", "\(what): \(reply)")
                #expect(error["reason"] as? String == reason, "\(what): \(reply)")
                await expectHealthy(client, after: what)
            }
            let state = try await client.customer("fay")
            #expect(JSONFields.nonConsumables(state).isEmpty, "a refused JWS stored something")
            #expect(JSONFields.transactionIds(try await client.history("fay")).isEmpty)

            let genuine = try await client.postTransaction(jws, for: "fay")
            #expect(genuine.status == 200, "the untouched JWS verifies: \(genuine)")
            #expect(JSONFields.nonConsumables(try genuine.customer()) == ["market.premium"])
        }

        /// `transaction` signed with the fixture's own leaf key and chain (the server trusts its root), under a
        /// header that adds `"crit":["b64"]`: valid in every way but the header Apple's library refuses.
        static func signedWithCrit(_ transaction: StoreTransaction, authority: SandboxCertificateAuthority, in directory: URL)
            throws -> String
        {
            let folder = directory.appendingPathComponent("crit-signer")
            try authority.write(to: folder)
            typealias FileName = SandboxCertificateAuthority.FileName
            let key = try #require(PrivateKey(pemOrDER: try Data(contentsOf: folder.appendingPathComponent(FileName.leafKey))))
            let chain = try [FileName.leaf, FileName.intermediate, FileName.root].map { name in
                try #require(Certificate.parseAll(try Data(contentsOf: folder.appendingPathComponent(name))).first)
            }
            let signer = JWSSigner(key: key, chain: chain)
            let header = signer.headerJSON.replacingOccurrences(of: #"{"alg":"ES256","#, with: #"{"alg":"ES256","crit":["b64"],"#)
            #expect(header.contains("crit"))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let payload = try encoder.encode(transaction)
            return try #require(signer.sign(payload: payload, header: header))
        }
    }
}
