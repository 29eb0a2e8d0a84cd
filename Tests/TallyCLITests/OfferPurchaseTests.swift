import Foundation
import Testing

/// Offers bought through the real `tally sandbox` with signatures Apple's `app-store-server-library` makes
/// (offer_purchases.py): promotional V1 and V2, win-back, introductory eligibility, offer codes, and each
/// refusal (reused nonce, stale timestamp, tampered field, another token or product, an offer not the product's).
@Suite struct OfferPurchaseTests {
    @Test func applesSignaturesBuyOffersAndTheirForgeriesAreRefused() throws {
        let sandbox = try MarketSandbox(start: ISO8601DateFormatter().string(from: Date()))
        let key = try sandbox.run("api-key", "--json")
        #expect(key.status == 0, "\(key.stderr)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("offer_purchases.py")
        let tally = TallyProcess.productsDirectory.appendingPathComponent("tally").path
        let run = try TallyProcess.run(executable: URL(fileURLWithPath: "/usr/bin/env"),
                                       ["python3", script.path, tally, sandbox.directory.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("all offer cases hold"), "\(run.stdout)")
        #expect(!run.stdout.contains("FAILED"))
    }
}
