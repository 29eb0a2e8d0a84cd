import Foundation
import TallyCore

extension ConsumptionInformation {
    /// Apple's `accountTenure` band for an account `days` old: 1 under 3 days, 2 under 10, 3 under 30, 4 under 90,
    /// 5 under 180, 6 under 365, 7 from 365 on (each band from its lower bound); 0 for a negative age.
    static func tenureBand(days: Double) -> Int {
        guard days >= 0 else { return 0 }
        let bounds: [Double] = [3, 10, 30, 90, 180, 365]
        return (bounds.firstIndex { days < $0 } ?? bounds.count) + 1
    }

    /// Apple's `lifetimeDollarsPurchased` / `lifetimeDollarsRefunded` band: 1 for $0, 2 up to $49.99, 3 up to
    /// $99.99, 4 up to $499.99, 5 up to $999.99, 6 up to $1,999.99, 7 from $2,000; 0 undeclared (nil).
    static func dollarBand(_ dollars: Decimal?) -> Int {
        guard let dollars, dollars >= 0 else { return 0 }
        if dollars == 0 { return 1 }
        let bounds: [Decimal] = [50, 100, 500, 1_000, 2_000]
        return (bounds.firstIndex { dollars < $0 } ?? bounds.count) + 2
    }

    /// What `transactions` cost in USD (`price` is in milliunits), exact; nil when one has no price or another
    /// currency (the server does not convert), so the band is undeclared rather than wrong.
    static func usdTotal(_ transactions: [StoreTransaction]) -> Decimal? {
        var total = Decimal(0)
        for transaction in transactions {
            guard let amount = transaction.priceAmount, transaction.currency == "USD" else { return nil }
            total += amount
        }
        return total
    }

    /// v1 `consumptionStatus`: 1 not consumed, 2 partially, 3 fully, from the consumed share; 0 undeclared
    /// when the server cannot see the use.
    var consumptionStatus: Int {
        guard let consumptionPercentage else { return 0 }
        return consumptionPercentage == 0 ? 1 : consumptionPercentage >= 100_000 ? 3 : 2
    }

    /// The JSON body of `PUT /inApps/v1/transactions/consumption/{transactionId}` (`ConsumptionRequestV1`, every
    /// field Apple requires): delivered and working, the Apple platform, play time and user status undeclared
    /// (the server does not know them), the refund preference mapped to v1's numbers.
    public var jsonV1: [UInt8] {
        JSONWriter.object { writer in
            writer.field("accountTenure", accountTenure)
            writer.field("appAccountToken", appAccountToken ?? "")
            writer.field("consumptionStatus", consumptionStatus)
            writer.field("customerConsented", true)
            writer.field("deliveryStatus", 0)
            writer.field("lifetimeDollarsPurchased", lifetimeDollarsPurchased)
            writer.field("lifetimeDollarsRefunded", lifetimeDollarsRefunded)
            writer.field("platform", 1)
            writer.field("playTime", 0)
            switch refundPreference {
            case "GRANT_FULL", "GRANT_PRORATED": writer.field("refundPreference", 1)
            case "DECLINE": writer.field("refundPreference", 2)
            default: writer.field("refundPreference", 0)
            }
            writer.field("sampleContentProvided", sampleContentProvided)
            writer.field("userStatus", 0)
        }
    }
}
