import Foundation
import TallyCore
import TallyStorage

extension PostgresCustomerStore {
    /// The newest saved version: one index read, which every server of the database polls.
    public func offeringsVersion() throws(CustomerStoreError) -> Int64 {
        try read("the offerings version cannot be read") { (connection) throws(PostgresError) -> Int64 in
            try connection.query("SELECT COALESCE(MAX(version), 0) FROM offerings_versions").integer(0, 0) ?? 0
        }
    }

    /// The version asked for (the newest when nil).
    public func savedOfferings(version: Int64?) throws(CustomerStoreError) -> SavedOfferings? {
        try read("the offerings document cannot be read") { (connection) throws(PostgresError) -> SavedOfferings? in
            if let version {
                return try connection.offeringsRows("WHERE version = $1", [.integer(version)], limit: 1).first
            }
            return try connection.offeringsRows("", [], limit: 1).first
        }
    }

    /// Inserts version `following + 1` only while `following` is the newest: of two servers saving at once, the
    /// second's insert meets the first's row (`ON CONFLICT DO NOTHING`, after waiting for its COMMIT) and returns
    /// no row, so it answers nil.
    public func saveOfferings(_ document: [UInt8], following: Int64, origin: OfferingsOrigin, rolledBackTo: Int64?,
                              at date: Date) throws(CustomerStoreError) -> SavedOfferings? {
        let text = String(decoding: document, as: UTF8.self)
        return try write("the offerings document cannot be saved") { (connection) throws(PostgresError) -> SavedOfferings? in
            let rows = try connection.query("""
                INSERT INTO offerings_versions (version, document, saved_ms, origin, rolled_back_to)
                SELECT $1, $2, $3, $4, $5
                WHERE (SELECT COALESCE(MAX(version), 0) FROM offerings_versions) = $6
                ON CONFLICT (version) DO NOTHING RETURNING version
                """, [.integer(following + 1), .bytes(text), .integer(date.millisecondsSince1970),
                      .text(origin.rawValue), rolledBackTo.map(PostgresValue.integer) ?? .null, .integer(following)])
            guard rows.count == 1 else { return nil }
            return SavedOfferings(version: following + 1, document: document,
                                  savedAt: Date(millisecondsSince1970: date.millisecondsSince1970), origin: origin,
                                  rolledBackTo: rolledBackTo)
        }
    }

    /// Versions older than `before`, newest first.
    public func offeringsHistory(before: Int64?, limit: Int) throws(CustomerStoreError) -> [SavedOfferings] {
        try read("the offerings history cannot be read") { (connection) throws(PostgresError) -> [SavedOfferings] in
            try connection.offeringsRows("WHERE version < $1", [.integer(before ?? Int64.max)], limit: limit)
        }
    }
}

extension PostgresConnection {
    /// Saved versions matching `condition` (its parameters `$1`…), newest first.
    func offeringsRows(_ condition: String, _ values: [PostgresValue], limit: Int) throws(PostgresError)
        -> [SavedOfferings]
    {
        let rows = try query("""
            SELECT version, document, saved_ms, origin, rolled_back_to FROM offerings_versions \(condition)
            ORDER BY version DESC LIMIT $\(values.count + 1)
            """, values + [.integer(Int64(limit))])
        var result: [SavedOfferings] = []
        for row in 0..<rows.count {
            let originText = try rows.requiredText(row, 3)
            guard let origin = OfferingsOrigin(rawValue: originText), let version = try rows.integer(row, 0),
                  let saved = try rows.integer(row, 2) else {
                throw .corrupt("an offerings version has an unknown origin '\(originText)' or no number")
            }
            result.append(SavedOfferings(version: version, document: Array(try rows.requiredBytes(row, 1).utf8),
                                         savedAt: Date(millisecondsSince1970: saved), origin: origin,
                                         rolledBackTo: try rows.integer(row, 4)))
        }
        return result
    }
}
