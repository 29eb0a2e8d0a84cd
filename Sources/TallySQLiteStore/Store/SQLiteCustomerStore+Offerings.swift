import Foundation
import TallySQLite
import TallyStorage

extension SQLiteCustomerStore {
    /// The newest saved version, from a reader.
    public func offeringsVersion() throws(CustomerStoreError) -> Int64 {
        try readOfferings { (connection) throws(SQLiteError) in
            try connection.integer("SELECT COALESCE(MAX(version), 0) FROM offerings_versions") ?? 0
        }
    }

    /// The version asked for (the newest when nil), from a reader.
    public func savedOfferings(version: Int64?) throws(CustomerStoreError) -> SavedOfferings? {
        try readOfferings { (connection) throws(SQLiteError) in
            let rows = if let version {
                try connection.offeringsRows("WHERE version = ?", [.integer(version)], limit: 1)
            } else {
                try connection.offeringsRows("", [], limit: 1)
            }
            return rows.first
        }
    }

    /// Saves the next version in the write queue's order, so the check of `following` and the insert are one
    /// atomic step.
    public func saveOfferings(_ document: [UInt8], following: Int64, origin: OfferingsOrigin, rolledBackTo: Int64?,
                              at date: Date) throws(CustomerStoreError) -> SavedOfferings? {
        let text = String(decoding: document, as: UTF8.self)
        let saved = SavedOfferings(version: following + 1, document: document,
                                   savedAt: Date(millisecondsSince1970: date.millisecondsSince1970), origin: origin,
                                   rolledBackTo: rolledBackTo)
        return try write { (connection) throws(SQLiteError) -> SavedOfferings? in
            guard try connection.integer("SELECT COALESCE(MAX(version), 0) FROM offerings_versions") == following else {
                return nil
            }
            try connection.execute("""
                INSERT INTO offerings_versions (version, document, saved_ms, origin, rolled_back_to)
                VALUES (?, ?, ?, ?, ?)
                """, [.integer(saved.version), .text(text), .integer(date.millisecondsSince1970),
                      .text(origin.rawValue), rolledBackTo.map(SQLiteValue.integer) ?? .null])
            return saved
        }
    }

    /// Versions older than `before`, newest first, from a reader.
    public func offeringsHistory(before: Int64?, limit: Int) throws(CustomerStoreError) -> [SavedOfferings] {
        try readOfferings { (connection) throws(SQLiteError) in
            try connection.offeringsRows("WHERE version < ?", [.integer(before ?? Int64.max)], limit: limit)
        }
    }

    private func readOfferings<T: Sendable>(_ body: (SQLiteConnection) throws(SQLiteError) -> T)
        throws(CustomerStoreError) -> T
    {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) in try body(connection) }
        } catch {
            throw error.storeError()
        }
    }
}

extension SQLiteConnection {
    /// Saved versions matching `condition`, newest first.
    func offeringsRows(_ condition: String, _ values: [SQLiteValue], limit: Int) throws(SQLiteError) -> [SavedOfferings] {
        var rows: [SavedOfferings] = []
        try query("""
            SELECT version, document, saved_ms, origin, rolled_back_to FROM offerings_versions \(condition)
            ORDER BY version DESC LIMIT ?
            """, values + [.integer(Int64(limit))]) { (row) throws(SQLiteError) in
            let originText = try row.requiredText(3)
            guard let origin = OfferingsOrigin(rawValue: originText) else {
                throw SQLiteError(code: 11, "offerings version \(row.int64(0)) has an unknown origin '\(originText)'")
            }
            rows.append(SavedOfferings(version: row.int64(0), document: Array(try row.requiredText(1).utf8),
                                       savedAt: Date(millisecondsSince1970: row.int64(2)), origin: origin,
                                       rolledBackTo: row.isNull(4) ? nil : row.int64(4)))
        }
        return rows
    }
}
