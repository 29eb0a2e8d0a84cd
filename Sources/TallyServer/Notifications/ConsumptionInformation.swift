import Foundation
import TallyCore
import TallyStorage

/// The `ConsumptionRequest` body (Send Consumption Information, v2) the server sends for a refund request,
/// from what it knows of the transaction and its customer.
///
/// - `customerConsented`: true (the server answers only when the operator states consent, ``ConsumptionSettings``).
/// - `deliveryStatus`: `DELIVERED`: the transaction is stored for a customer, which the engine does before it
///   finishes a purchase (a transaction no customer posted is not answered; see `ConsumptionResponder`).
/// - `consumptionPercentage` (milliunits), for a consumable that credits virtual currency: the share of its
///   credit the customer's balance no longer covers — with 100 coins bought and 40 left, 60% were consumed;
///   with 500 left, none. The largest share over the currencies it credits. Left out for auto-renewable
///   subscriptions (Apple derives it and refuses it, 4000209) and for anything whose use the server cannot
///   see (non-consumables, non-renewing subscriptions, consumables without a currency).
/// - `refundPreference`: the configured one; `GRANT_PRORATED` only with a share strictly between 0 and
///   100% (Apple's rule), otherwise it is left out.
public struct ConsumptionInformation: Sendable, Hashable {
    /// `deliveryStatus`.
    public var deliveryStatus: String
    /// `sampleContentProvided`.
    public var sampleContentProvided: Bool
    /// `consumptionPercentage` in milliunits (`0`–`100000`); nil: left out.
    public var consumptionPercentage: Int?
    /// `refundPreference`; nil: left out.
    public var refundPreference: String?
    /// The transaction's `appAccountToken` (v1), when it has one.
    public var appAccountToken: String?
    /// v1 `accountTenure` band (1–7) of the time since the customer's earliest stored purchase; 0 undeclared.
    public var accountTenure: Int
    /// v1 `lifetimeDollarsPurchased` band (1–7) of the customer's stored purchases; 0 undeclared (a price that is
    /// missing or not in USD).
    public var lifetimeDollarsPurchased: Int
    /// v1 `lifetimeDollarsRefunded` band of the customer's refunded purchases; 0 undeclared, as above.
    public var lifetimeDollarsRefunded: Int
    /// Whether the transaction is a consumable or an auto-renewable subscription: the only kinds v1 covers.
    public var isV1Kind: Bool

    /// What to send for `transaction` (the copy stored for `record`'s customer); nil when it is already
    /// revoked (a refund was granted: there is nothing to decide).
    public init?(transaction: StoreTransaction, record: CustomerRecord, credits: CurrencyCredits, settings: ConsumptionSettings,
                 at now: Date) {
        guard !transaction.isRevoked else { return nil }
        appAccountToken = transaction.appAccountToken
        isV1Kind = transaction.type == .consumable || transaction.type == .autoRenewable
        let purchases = record.transactions.map(\.transaction)
        accountTenure = purchases.map(\.purchaseDate).min().map { Self.tenureBand(days: now.timeIntervalSince($0) / 86_400) } ?? 0
        lifetimeDollarsPurchased = Self.dollarBand(Self.usdTotal(purchases))
        lifetimeDollarsRefunded = Self.dollarBand(Self.usdTotal(purchases.filter(\.isRevoked)))
        deliveryStatus = "DELIVERED"
        sampleContentProvided = settings.sampleContentProvided
        consumptionPercentage = transaction.type == .autoRenewable
            ? nil : Self.consumedShare(of: transaction, nets: record.nets, credits: credits)
        refundPreference = settings.refundPreference
        if refundPreference == "GRANT_PRORATED", !(1...99_999).contains(consumptionPercentage ?? 0) {
            refundPreference = nil
        }
    }

    /// The consumed share of what `transaction` credits, in milliunits rounded to the nearest; nil when it
    /// credits no currency.
    static func consumedShare(of transaction: StoreTransaction, nets: [String: Decimal], credits: CurrencyCredits) -> Int? {
        var largest: Decimal?
        for credit in credits.credits(of: transaction) where credit.amount > 0 {
            let net = nets.first { $0.key.hasSameBytes(as: credit.currency) }?.value ?? 0
            let unconsumed = min(max(net, 0), credit.amount)
            let share = (credit.amount - unconsumed) / credit.amount
            largest = max(largest ?? 0, share)
        }
        guard let largest else { return nil }
        var milliunits = largest * 100_000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &milliunits, 0, .plain)
        return min(100_000, max(0, NSDecimalNumber(decimal: rounded).intValue))
    }

    /// The JSON body of `PUT /inApps/v2/transactions/consumption/{transactionId}`.
    public var json: [UInt8] {
        JSONWriter.object { writer in
            writer.field("customerConsented", true)
            writer.field("deliveryStatus", deliveryStatus)
            writer.field("sampleContentProvided", sampleContentProvided)
            if let consumptionPercentage { writer.field("consumptionPercentage", consumptionPercentage) }
            if let refundPreference { writer.field("refundPreference", refundPreference) }
        }
    }
}
