import CSQLite
import TallySQLite
import TallyStorage

extension SQLiteError {
    /// The store's reason: `.busy` for a busy or locked database, `.failed` for everything else
    /// (I/O, full disk, corruption, constraint violations).
    var storeReason: CustomerStoreError.Reason {
        switch primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        default: .failed
        }
    }

    /// The store error for this failure; `reason` overrides the mapping (opening and migrating are `.unavailable`).
    func storeError(_ reason: CustomerStoreError.Reason? = nil) -> CustomerStoreError {
        CustomerStoreError(reason ?? storeReason, message, underlying: self)
    }
}
