import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TallySQLite
import TallyStorage

extension SQLiteCustomerStore {
    /// The free space the database's file system must keep for ``checkWritable()`` to pass, in bytes.
    public static let readinessHeadroomBytes: UInt64 = 1 << 20

    /// Proves a write can be made now: the database's file system is writable and keeps at least
    /// ``readinessHeadroomBytes`` free, and a probe write commits durably through the write queue (as every
    /// write does). The probe rewrites the file header's `application_id` with the value it holds, which
    /// changes nothing but makes SQLite write and sync one page (an unchanged row would write nothing).
    ///
    /// - Throws: ``CustomerStoreError/Reason/failed`` for a full or read-only file system or a failed commit,
    ///   ``CustomerStoreError/Reason/busy`` when another process holds the lock.
    public func checkWritable() throws(CustomerStoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        var info = statvfs()
        if statvfs(directory.isEmpty ? "." : directory, &info) == 0 {
            if UInt(info.f_flag) & UInt(ST_RDONLY) != 0 {
                throw CustomerStoreError(.failed, "the file system of '\(path)' is mounted read-only")
            }
            let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
            if free < Self.readinessHeadroomBytes {
                throw CustomerStoreError(.failed, "the file system of '\(path)' has \(free) bytes free; "
                    + "writes need at least \(Self.readinessHeadroomBytes)")
            }
        }
        try write { (connection) throws(SQLiteError) in
            let id = try connection.integer("PRAGMA application_id") ?? 0
            // PRAGMA takes no bound parameters; the value is the integer the file already holds.
            try connection.execute("PRAGMA application_id = \(id)")
        }
    }
}
