import Foundation
import TallyCore
import Testing
@testable import TallyVerify

@Suite("Receipt purchase to Transaction")
struct ReceiptTransactionMappingTests {
    @Test("a production auto-renewable record maps with its ids, dates and environment")
    func autoRenewable() throws {
        let receipt = try AppReceipt.parse(base64: ReceiptVectors.realReceipt(ReceiptVectors.getpure)).get()
        let transactions = receipt.transactions()
        #expect(transactions.count == receipt.inAppPurchases.count)
        let first = try #require(transactions.first)
        let record = receipt.inAppPurchases[0]
        #expect(first.transactionId == "340001196262039")
        #expect(first.originalTransactionId == record.originalTransactionId)
        #expect(first.webOrderLineItemId == "340000558053130")
        #expect(first.productId == "org.getpure.pure.Week")
        #expect(first.bundleId == "org.getpure.pure-iphone")
        #expect(first.type == .autoRenewable)
        #expect(first.expiresDate == record.expiresDate)
        #expect(first.environment == .production)
        #expect(first.inAppOwnershipType == nil)
        #expect(first.revocationDate == nil)
    }

    @Test("a sandbox consumable (1707 = 1) maps to Consumable in the sandbox environment")
    func consumable() throws {
        let receipt = try AppReceipt.parse(base64: ReceiptVectors.realReceipt(
            "receipt_ProductionSandbox_club.omnichess.ios_2022-05-08_90889b81")).get()
        let record = try #require(receipt.inAppPurchases.first { $0.productId == "purchase_coin_small" })
        let transaction = record.transaction(bundleId: receipt.bundleId, environment: receipt.environment)
        #expect(transaction.type == .consumable)
        #expect(transaction.expiresDate == nil)
        #expect(transaction.environment == .sandbox)
    }

    @Test("a trial record maps to an introductory offer")
    func trial() throws {
        let receipt = try AppReceipt.parse(base64: ReceiptVectors.realReceipt(
            "receipt_ProductionSandbox_com.whalerock.golfwang_2016-08-27_e09b4570")).get()
        let record = try #require(receipt.inAppPurchases.first { $0.isTrialPeriod == true })
        #expect(record.transaction(bundleId: receipt.bundleId).offerType == .introductory)
        let paid = try #require(receipt.inAppPurchases.first { $0.isTrialPeriod == false && $0.isInIntroOfferPeriod != true })
        #expect(paid.transaction(bundleId: receipt.bundleId).offerType == nil)
    }

    @Test("the product type comes from 1707, else from the presence of an expiry")
    func productTypeInference() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        func type(_ code: Int?, expires: Date?) -> ProductType {
            InAppPurchase(productId: "p", transactionId: "1", purchaseDate: date, productType: code, expiresDate: expires)
                .transaction(bundleId: "b").type
        }
        #expect(type(0, expires: nil) == .nonConsumable)
        #expect(type(1, expires: nil) == .consumable)
        #expect(type(2, expires: date) == .nonRenewing)
        #expect(type(3, expires: date) == .autoRenewable)
        #expect(type(7, expires: nil).rawValue == "Receipt product type 7")
        #expect(type(nil, expires: date) == .autoRenewable)
        #expect(type(nil, expires: nil) == .nonConsumable)
    }

    @Test("a cancellation date becomes the revocation date; the Xcode receipt maps to the xcode environment")
    func cancellationAndXcode() throws {
        let cancelled = Date(timeIntervalSince1970: 1_700_000_500)
        let purchase = InAppPurchase(
            quantity: 2, productId: "p", transactionId: "9", purchaseDate: Date(timeIntervalSince1970: 1_700_000_000),
            cancellationDate: cancelled)
        let transaction = purchase.transaction(bundleId: "b")
        #expect(transaction.revocationDate == cancelled)
        #expect(transaction.isRevoked)
        #expect(transaction.quantity == 2)
        #expect(transaction.originalTransactionId == "9")
        let xcode = try AppReceipt.parse(base64: ReceiptVectors.xcodeReceipt("xcode-app-receipt-with-transaction")).get()
        #expect(xcode.transactions().first?.environment == .xcode)
    }
}
