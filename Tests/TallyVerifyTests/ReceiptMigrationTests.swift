import Foundation
import Testing
@testable import TallyVerify

/// `transactionIdForMigration` against the answers of Apple's `ReceiptUtility.extractTransactionIdFromAppReceipt`.
@Suite("Receipt transaction id for migration")
struct ReceiptMigrationTests {
    @Test("a receipt with purchases gives the first in-app record's transaction id, as Apple's ReceiptUtility does")
    func normalReceipt() throws {
        let name = ReceiptVectors.getpure
        let fields = try #require(try ReceiptVectors.decoded(name)["fields"] as? [[String: Any]])
        let firstRecord = try #require(fields.first { $0["type"] as? Int == 17 }?["value"] as? [[String: Any]])
        let expected = try #require(firstRecord.first { $0["type"] as? Int == 1703 }?["value"] as? String)
        #expect(expected == "340001196262039")
        #expect(AppReceipt.transactionIdForMigration(base64: try ReceiptVectors.realReceipt(name)) == .success(expected))
    }

    @Test("every real receipt with purchases yields its first record's id; without, noPurchases", arguments: ReceiptVectors.realReceiptNames())
    func everyRealReceipt(name: String) throws {
        let receipt = try AppReceipt.parse(base64: ReceiptVectors.realReceipt(name)).get()
        let result = AppReceipt.transactionIdForMigration(base64: try ReceiptVectors.realReceipt(name))
        if let first = receipt.inAppPurchases.first {
            #expect(result == .success(first.transactionId))
        } else {
            #expect(result == .failure(.noPurchases))
        }
    }

    @Test("a receipt without in-app purchases gives noPurchases (Apple: null)")
    func emptyReceipt() throws {
        let base64 = try ReceiptVectors.realReceipt(ReceiptVectors.pdfifyEmpty)
        #expect(try AppReceipt.parse(base64: base64).get().firstTransactionId == nil)
        #expect(AppReceipt.transactionIdForMigration(base64: base64) == .failure(.noPurchases))
    }

    @Test("Xcode receipts give xcodeReceipt, carrying Apple's answer (\"0\" with a transaction, null without)")
    func xcodeReceipts() throws {
        let withTransaction = try ReceiptVectors.xcodeReceipt("xcode-app-receipt-with-transaction")
        #expect(try AppReceipt.parse(base64: withTransaction).get().firstTransactionId == "0")
        #expect(AppReceipt.transactionIdForMigration(base64: withTransaction)
            == .failure(.xcodeReceipt(reportedTransactionId: "0")))
        let empty = try ReceiptVectors.xcodeReceipt("xcode-app-receipt-empty")
        #expect(try AppReceipt.parse(base64: empty).get().firstTransactionId == nil)
        #expect(AppReceipt.transactionIdForMigration(base64: empty) == .failure(.xcodeReceipt(reportedTransactionId: nil)))
    }

    @Test("unreadable input gives malformed with a detail", arguments: ["", "not base64!", "MIIB", "AAAAAAAA"])
    func malformed(input: String) {
        guard case .failure(.malformed(let detail)) = AppReceipt.transactionIdForMigration(base64: input) else {
            Issue.record("expected malformed for \(input)")
            return
        }
        #expect(!detail.isEmpty)
    }

    @Test("a tampered receipt still yields an id: extraction does not verify, like Apple's")
    func extractionDoesNotVerify() throws {
        let tampered = try ReceiptVectors.text(ReceiptVectors.tamperedReceipt)
        #expect(AppReceipt.transactionIdForMigration(base64: tampered) == .success("340001196262039"))
    }
}
