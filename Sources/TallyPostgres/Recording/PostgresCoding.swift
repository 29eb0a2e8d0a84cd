import Foundation
import TallyCore
import TallyStorage

/// How the PostgreSQL store writes values and reads them back: transactions and renewal info as TallyCore's
/// JSON of Apple's payload (millisecond dates), as the SQLite store keeps them.
enum PostgresCoding {
    /// The transaction in a stored payload.
    static func transaction(json: String, id: String) throws(PostgresError) -> StoreTransaction {
        do {
            return try StoreTransaction(payloadJSON: Array(json.utf8))
        } catch {
            throw .corrupt("the stored payload of transaction '\(id.prefix(64))' does not decode: \(error)")
        }
    }

    /// The renewal info in a stored payload.
    static func renewalInfo(json: String, chain: String) throws(PostgresError) -> RenewalInfo {
        do {
            return try JSONDecoder().decode(RenewalInfo.self, from: Data(json.utf8))
        } catch {
            throw .corrupt("the stored renewal info of chain '\(chain.prefix(64))' does not decode: \(error)")
        }
    }
}

extension PostgresCoding {
    /// The dashboard's columns of a transaction row (schema migration 3), in this order: `product_id`,
    /// `purchase_ms`, `expires_ms`, `revocation_ms`, `price`, `currency`, `offer_type`, `is_upgraded`.
    static func dashboardValues(of transaction: StoreTransaction) -> [PostgresValue] {
        [
            .bytes(transaction.productId), .integer(transaction.purchaseDate.millisecondsSince1970),
            transaction.expiresDate.map { .integer($0.millisecondsSince1970) } ?? .null,
            transaction.revocationDate.map { .integer($0.millisecondsSince1970) } ?? .null,
            transaction.price.map { .integer($0) } ?? .null, .optionalBytes(transaction.currency),
            transaction.offerType.map { .integer(Int64($0.rawValue)) } ?? .null, .bool(transaction.isUpgraded == true),
        ]
    }

    /// The offer columns of a transaction row (schema migration 13), in this order: `offer_identifier`,
    /// `offer_discount_type`, `environment`.
    static func offerValues(of transaction: StoreTransaction) -> [PostgresValue] {
        [.optionalBytes(transaction.offerIdentifier), transaction.offerDiscountType.map { .text($0.rawValue) } ?? .null,
         transaction.environment.map { .text($0.rawValue) } ?? .null]
    }

    /// The dashboard's columns of a renewal info row (schema migration 3): `in_billing_retry`, `grace_expires_ms`.
    static func dashboardValues(of info: RenewalInfo) -> [PostgresValue] {
        [.bool(info.isInBillingRetryPeriod == true), info.gracePeriodExpiresDate.map { .integer($0.millisecondsSince1970) } ?? .null]
    }
}
