import Foundation
import TallyCore
import Testing
@testable import TallyVerify

/// Paths of the JWS tests' fixtures and of the shared read-only vectors (`<package root>/../shared/vectors`).
enum JWSTestPaths {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    /// `<package root>/../shared/vectors`; from a git worktree nested deeper, the nearest ancestor's `shared/vectors`.
    static let vectors: URL = {
        var directory = packageRoot.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("shared/vectors")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors")
    }()
    static let appleLibrary = vectors.appendingPathComponent("apple-server-library/python/tests/resources")
    static let appleReal = vectors.appendingPathComponent("apple-real")
    static let inlineConstants = vectors.appendingPathComponent("apple-server-library/inline-constants")
    static let pki = testsDirectory.appendingPathComponent("Fixtures/JWS")

    static func text(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The generated test PKI in `Fixtures/JWS` (see `make-fixtures.sh`): leaves valid for 20 years from
/// the day the fixtures were made (2026-11-30), roots for 40.
enum JWSTestPKI {
    /// A signing date inside every fixture certificate's validity (2030-01-01).
    static let validDate = Date(timeIntervalSince1970: 1_893_456_000)
    /// After the leaves expire, before the roots do (2050-01-01).
    static let afterLeafExpiry = Date(timeIntervalSince1970: 2_524_608_000)
    /// Before any fixture certificate is valid (2024-01-01).
    static let beforeIssue = Date(timeIntervalSince1970: 1_704_067_200)
    static let bundleId = "com.tally.test"

    static func certificate(_ name: String) throws -> Certificate {
        let data = try Data(contentsOf: JWSTestPaths.pki.appendingPathComponent("\(name).pem"))
        return try #require(Certificate.parseAll(data).first, "\(name).pem does not parse")
    }

    static func key(_ name: String) throws -> PrivateKey {
        let data = try Data(contentsOf: JWSTestPaths.pki.appendingPathComponent("\(name).key"))
        return try #require(PrivateKey(pemOrDER: data), "\(name).key does not parse")
    }

    /// A signer for `leaf` with x5c [leaf, intermediate, root].
    static func signer(leaf: String = "leaf", intermediate: String = "intermediate", root: String = "root") throws
        -> JWSSigner
    {
        JWSSigner(key: try key(leaf), chain: [try certificate(leaf), try certificate(intermediate), try certificate(root)])
    }

    /// A verifier trusting the fixture root.
    static func verifier(
        environment: StoreEnvironment = .sandbox, bundleId: String? = bundleId, appAppleId: Int64? = 1234,
        effectiveDate: EffectiveDatePolicy? = nil, maximumLength: Int = 1 << 20
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: VerifierConfiguration(
            rootCertificates: [try certificate("root")], bundleId: bundleId, appAppleId: appAppleId,
            environment: environment, effectiveDate: effectiveDate, maximumLength: maximumLength))
    }

    /// A sandbox transaction of the fixture app signed at `signedDate`.
    static func transaction(signedDate: Date = validDate, bundleId: String = bundleId) -> StoreTransaction {
        StoreTransaction(
            transactionId: "2000000000000001", bundleId: bundleId, productId: "com.tally.test.coins",
            purchaseDate: signedDate.addingTimeInterval(-60), quantity: 3, type: .consumable,
            signedDate: signedDate, environment: .sandbox, storefront: "USA", currency: "USD", price: 4990)
    }
}

extension Result {
    /// The failure, if any (for `#expect`).
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }

    /// The success value, if any.
    var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

@Suite struct JWSFixturesTests {
    @Test func fixturePKIChainsAndCarriesAppleMarkers() throws {
        let leaf = try JWSTestPKI.certificate("leaf")
        let intermediate = try JWSTestPKI.certificate("intermediate")
        #expect(leaf.hasExtension(oid: SignedDataVerifier.leafMarkerOID))
        #expect(!leaf.isCA)
        #expect(intermediate.hasExtension(oid: SignedDataVerifier.intermediateMarkerOID))
        #expect(intermediate.isCA)
        #expect(leaf.isValid(at: JWSTestPKI.validDate))
        #expect(!leaf.isValid(at: JWSTestPKI.afterLeafExpiry))
        #expect(try !JWSTestPKI.certificate("leaf-no-oid").hasExtension(oid: SignedDataVerifier.leafMarkerOID))
        #expect(try !JWSTestPKI.certificate("intermediate-not-ca").isCA)
    }
}
