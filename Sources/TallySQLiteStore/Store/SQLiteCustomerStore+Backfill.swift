import Foundation
import TallySQLite
import TallyStorage

extension SQLiteCustomerStore {
    /// The settings key of the back-fill cursor.
    static let backfillCursorSetting = "backfill_cursor"

    /// The cursor in `store_settings`.
    public func backfillCursor() throws(CustomerStoreError) -> BackfillCursor? {
        do {
            let text = try readers.withConnection { (connection) throws(SQLiteError) in
                try connection.setting(Self.backfillCursorSetting)
            }
            return text.flatMap(BackfillCursor.init(text:))
        } catch {
            throw error.storeError()
        }
    }

    /// Writes the cursor durably (one write).
    public func saveBackfillCursor(_ cursor: BackfillCursor) throws(CustomerStoreError) {
        try write { (connection) throws(SQLiteError) in
            try connection.setSetting(Self.backfillCursorSetting, cursor.text)
        }
    }
}
