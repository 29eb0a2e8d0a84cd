import Foundation
import Tally
import TallyCore

extension MarketSession {
    /// `buy PRODUCT_ID [--quantity N] [--offer ID | --win-back ID | --intro-eligibility]`: 0 purchased or pending,
    /// 1 cancelled or refused, 2 unknown product or a quantity the product does not allow. `--offer` buys with a
    /// promotional offer signed by the server (through the demo's app backend with `--backend-key`, else with the
    /// customer token), `--win-back` with a win-back offer, `--intro-eligibility` with the server's introductory
    /// offer eligibility JWS.
    func buy(_ arguments: Arguments, json: Bool) async throws -> Int32 {
        let productId = try arguments.positional(0, "PRODUCT_ID")
        let quantity = try arguments.value("quantity").map(SandboxBuy.parseQuantity) ?? 1
        let known = try await store.products([productId])
        guard known.invalidProductIds.isEmpty else {
            throw UsageError("unknown product '\(productId)'; run 'tally market products' for the ids on sale")
        }
        let report: Report
        do {
            let context = PurchaseContext(screen: "market")
            let outcome: PurchaseOutcome
            if let offerId = arguments.value("offer") {
                outcome = try await store.purchase(productId, promotionalOffer: offerId, quantity: quantity, context: context)
            } else if let offerId = arguments.value("win-back") {
                outcome = try await store.purchase(productId, quantity: quantity, offer: .winBack(id: offerId), context: context)
            } else if arguments.flag("intro-eligibility") {
                outcome = try await store.purchaseWithServerIntroductoryEligibility(productId, context: context)
            } else {
                outcome = try await store.purchase(productId, quantity: quantity, context: context)
            }
            report = Report(outcome, productId: productId)
        } catch {
            report = Report(failure: error, productId: productId)
        }
        Console.line(json ? try Output.json(report) : report.sentence)
        return report.exitCode
    }

    /// The answer to `buy`: `{"outcome","productId","transactionId","purchaseId","error","errorCode"}`; for a
    /// scheduled (or cancelled) subscription change also `"currentProductId"`, `"scheduledProductId"` and
    /// `"effectiveDate"` (the next renewal), `transactionId` being the subscription in force.
    struct Report: Encodable {
        var outcome: String
        var productId: String
        var transactionId: String?
        var currentProductId: String?
        var scheduledProductId: String?
        var effectiveDate: Date?
        var expiresDate: Date?
        /// Apple's `offerType` (1 introductory, 2 promotional, 3 offer code, 4 win-back), and the offer's id.
        var offerType: Int?
        var offerIdentifier: String?
        /// The price paid, in milliunits, as the transaction says.
        var price: Int64?
        var purchaseId: String?
        var error: String?
        var errorCode: String?

        init(_ outcome: PurchaseOutcome, productId: String) {
            self.productId = productId
            switch outcome {
            case .purchased(let transaction):
                self.outcome = "purchased"
                transactionId = transaction.transactionId
                expiresDate = transaction.expiresDate
                offerType = transaction.offerType?.rawValue
                offerIdentifier = transaction.offerIdentifier
                price = transaction.price
            case .pending(let pending):
                self.outcome = "pending"
                purchaseId = pending.id
            case .changeScheduled(let change):
                self.outcome = "changeScheduled"
                take(change)
            case .changeCancelled(let change):
                self.outcome = "changeCancelled"
                take(change)
            case .cancelled:
                self.outcome = "cancelled"
                error = "the purchase was cancelled; nothing was charged"
                errorCode = "userCancelled"
            }
        }

        private mutating func take(_ change: ScheduledChange) {
            transactionId = change.transaction.transactionId
            expiresDate = change.transaction.expiresDate
            currentProductId = change.currentProductId
            scheduledProductId = change.productId
            effectiveDate = change.date
        }

        init(failure: StoreError, productId: String) {
            self.productId = productId
            outcome = "failed"
            error = failure.code == .purchaseNotAllowed
                ? "purchase not allowed (parental controls or Screen Time): \(failure.message)" : failure.message
            errorCode = failure.code.rawValue
        }

        /// 0 purchased or pending; 2 a quantity the product does not allow (bad input); 1 any other refusal or
        /// failure, as `tally sandbox buy`.
        var exitCode: Int32 {
            switch (outcome, errorCode) {
            case ("purchased", _), ("pending", _), ("changeScheduled", _), ("changeCancelled", _): ExitCode.ok
            case (_, StoreError.Code.invalidQuantity.rawValue?): ExitCode.usage
            default: ExitCode.refused
            }
        }

        /// One line for people.
        var sentence: String {
            switch outcome {
            case "purchased":
                let expiry = expiresDate.map { ", expires \($0.formatted(.iso8601))" } ?? ""
                return "Purchased \(productId): transaction \(transactionId ?? "?")\(expiry)"
            case "pending":
                return "Pending: purchase \(purchaseId ?? "?") for \(productId) waits for approval "
                    + "('tally sandbox approve \(purchaseId ?? "ID")')"
            case "changeScheduled":
                let date = effectiveDate.map { " on \($0.formatted(.iso8601))" } ?? ""
                return "Scheduled: \(currentProductId ?? "?") changes to \(productId) at the next renewal\(date); "
                    + "\(currentProductId ?? "?") stays in force until then (transaction \(transactionId ?? "?"))"
            case "changeCancelled":
                let date = effectiveDate.map { " on \($0.formatted(.iso8601))" } ?? ""
                return "Kept \(productId): the change to \(scheduledProductId ?? "?") scheduled\(date) is cancelled; "
                    + "\(productId) renews as it is (transaction \(transactionId ?? "?"))"
            case "cancelled":
                return "Cancelled: \(error ?? "")"
            default:
                return "Failed: \(error ?? "unknown error")"
            }
        }
    }
}
