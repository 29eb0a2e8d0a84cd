import Foundation
import Testing
import TallyCore
import TallySandbox

/// `tally verify --lines` writes a verified transaction's answer directly, not through `JSONEncoder`: each line
/// must be the same JSON value the one-input command (`JSONEncoder`) writes for the same JWS.
@Suite struct VerifyDirectJSONTests {
    private static let start = Date(timeIntervalSince1970: 1_790_000_000.123)

    /// A transaction with every field Tally models set, strings that need escaping included.
    private static let full = StoreTransaction(
        transactionId: "2000000000000001", originalTransactionId: "2000000000000000", webOrderLineItemId: "w/1",
        bundleId: "com.example.market", productId: "market.pro.\"monthly\"", subscriptionGroupIdentifier: "g\\1",
        purchaseDate: start, originalPurchaseDate: start.addingTimeInterval(-86_400),
        expiresDate: start.addingTimeInterval(30 * 86_400), quantity: 3, type: .autoRenewable,
        appAccountToken: "6f1c9e0e-0000-4000-8000-000000000001", inAppOwnershipType: .familyShared,
        signedDate: start.addingTimeInterval(1), revocationReason: .appIssue, revocationDate: start.addingTimeInterval(2),
        isUpgraded: true, offerType: .promotional, offerIdentifier: "café ☕️ \u{1}line\nbreak\ttab",
        environment: .sandbox, storefront: "USA", storefrontId: "143441", transactionReason: .renewal,
        currency: "USD", price: 9_990, offerDiscountType: .payAsYouGo, appTransactionId: "704",
        offerPeriod: "P1M", revocationType: .refundProrated, revocationPercentage: 45_000, billingPlanType: .billedUpFront)

    private static let minimal = StoreTransaction(transactionId: "1", bundleId: "com.example.market", productId: "market.coins.10",
                                             purchaseDate: start, type: .consumable, inAppOwnershipType: nil,
                                             environment: .sandbox)

    /// One the direct writer leaves to `JSONEncoder` (a nested field Tally does not model).
    private static let unknown = StoreTransaction(transactionId: "2", bundleId: "com.example.market", productId: "market.premium", purchaseDate: start,
                                             type: .nonConsumable, environment: .sandbox,
                                             unknownFields: ["zNewField": .string("kept"), "aNumber": .number(1),
                                                             "nested": .object(["n": .integer(2)])])

    /// A device's: scalar fields Tally does not model (`deviceVerification`, `deviceVerificationNonce`), written
    /// directly in their sorted places.
    private static let device = StoreTransaction(transactionId: "3", bundleId: "com.example.market", productId: "market.coins.10", purchaseDate: start,
                                             type: .consumable, environment: .sandbox,
                                             unknownFields: ["deviceVerification": .string("f0ICaMFDcjrVIq5mDE1Ys4Ms2mpzpNGF2U9hkDZbnSdnQqjk7G1v8GTkyKxiaZ/W"),
                                                             "deviceVerificationNonce": .string("5a0d9b2e-4c1f-4f6e-9d3a-2b8c7e1f0a64"),
                                                             "zLast": .bool(false), "aFirst": .integer(-1), "mid": .null])

    @Test func everyLineIsTheValueTheEncoderWrites() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-direct-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let authority = try SandboxCertificateAuthority.generate(now: Date())
        let root = folder.appendingPathComponent("root.pem")
        try Data(authority.rootPEM.utf8).write(to: root)
        let signer = try authority.signer()
        let tokens = try [Self.full, Self.minimal, Self.unknown, Self.device].map { try signer.signTransaction($0) }
        let options = ["verify", "--root", root.path, "--environment", "sandbox", "--bundle-id", "com.example.market",
                       "--kind", "transaction"]

        let lines = try TallyProcess.run(options + ["--lines", "-"], input: tokens.joined(separator: "\n") + "\n")
        #expect(lines.status == 0, "\(lines.stderr)")
        let answers: [String] = lines.stdout.split(separator: "\n").map { String($0) }
        #expect(answers.count == tokens.count)
        for (token, line) in zip(tokens, answers) {
            let one = try TallyProcess.run(options + ["-"], input: token)
            #expect(one.status == 0)
            let expected = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? NSDictionary)
            let written = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
            let same = written.isEqual(expected)
            #expect(same, "--lines wrote\n\(line)\nthe encoder\n\(one.stdout)")
            #expect(written["valid"] as? Bool == true)
        }
        let first = try #require(answers.first)
        let document = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]
        let payload = document?["payload"] as? [String: Any]
        let fields = payload?.keys.count ?? 0
        #expect(fields == 31, "every modelled field written: \(fields)")
    }
}
