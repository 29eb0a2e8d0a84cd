import CSQLite
import Foundation
import TallyCore
import TallyStorage
import TallySQLite

extension SQLiteConnection {
    /// The settings key holding ``TallyCore/CurrencyCredits/fingerprint`` of the credits the balances were built with.
    static let creditsFingerprintSetting = "credits_fingerprint"

    /// The net amount per currency kept for `appUserId` (credits − claw-backs − spends); empty for none.
    func nets(of appUserId: String) throws(SQLiteError) -> [String: Decimal] {
        var nets: [String: Decimal] = [:]
        try query("SELECT currency, net FROM balances WHERE app_user_id = ?", [.text(appUserId)]) {
            (row) throws(SQLiteError) in
            let currency = try row.requiredText(0)
            nets[currency] = try Self.decimal(try row.requiredText(1), currency: currency, of: appUserId)
        }
        return nets
    }

    /// The net amount of one currency kept for `appUserId`; zero when none is kept.
    func net(of appUserId: String, currency: String) throws(SQLiteError) -> Decimal {
        guard let text = try text("SELECT net FROM balances WHERE app_user_id = ? AND currency = ?",
                                  [.text(appUserId), .text(currency)]) else { return 0 }
        return try Self.decimal(text, currency: currency, of: appUserId)
    }

    /// Adds `amount` (negative to take away) to the net kept for `appUserId` in `currency`.
    func addToNet(of appUserId: String, currency: String, _ amount: Decimal) throws(SQLiteError) {
        try setNet(of: appUserId, currency: currency, try net(of: appUserId, currency: currency) + amount)
    }

    /// Stores `net` as the net kept for `appUserId` in `currency`.
    func setNet(of appUserId: String, currency: String, _ net: Decimal) throws(SQLiteError) {
        try execute("""
            INSERT INTO balances (app_user_id, currency, net) VALUES (?1, ?2, ?3)
            ON CONFLICT (app_user_id, currency) DO UPDATE SET net = ?3
            """, [.text(appUserId), .text(currency), .text(StoredValueCoding.text(net))])
    }

    /// A store setting; nil when never set.
    func setting(_ name: String) throws(SQLiteError) -> String? {
        try text("SELECT value FROM store_settings WHERE name = ?", [.text(name)])
    }

    /// Stores a store setting.
    func setSetting(_ name: String, _ value: String) throws(SQLiteError) {
        try execute("""
            INSERT INTO store_settings (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET value = ?2
            """, [.text(name), .text(value)])
    }

    /// Rebuilds every customer's nets from the whole stored history with `credits` (inside the caller's write
    /// transaction) and records its fingerprint; does nothing when the balances were built with the same credits.
    /// Runs at open: after the migration that added balances, and whenever `tally.json`'s currencies or the
    /// catalog kinds of their products changed.
    func rebuildBalancesIfNeeded(_ credits: CurrencyCredits) throws(SQLiteError) {
        guard try setting(Self.creditsFingerprintSetting) != credits.fingerprint else { return }
        try execute("DELETE FROM balances")
        var customers: [String] = []
        try query("SELECT app_user_id FROM customers ORDER BY app_user_id") { (row) throws(SQLiteError) in
            customers.append(try row.requiredText(0))
        }
        for customer in customers {
            let record = try customerRecord(customer)
            for (currency, net) in credits.nets(of: record.purchaseHistory) where net != 0 {
                try addToNet(of: customer, currency: currency, net)
            }
        }
        try setSetting(Self.creditsFingerprintSetting, credits.fingerprint)
    }

    private static func decimal(_ text: String, currency: String, of appUserId: String) throws(SQLiteError) -> Decimal {
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN else {
            throw SQLiteError(code: SQLITE_CORRUPT, "the stored balance of '\(currency)' for '\(appUserId.prefix(64))' "
                + "is '\(text)', not a decimal")
        }
        return value
    }
}
