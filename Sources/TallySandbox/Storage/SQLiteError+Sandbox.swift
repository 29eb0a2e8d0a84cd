import CSQLite
import TallySQLite

extension SQLiteError {
    /// The sandbox error for this failure in the database at `path`: a file that is not a sandbox database
    /// (or a damaged one) is ``SandboxError/Code/corruptState``, anything else ``SandboxError/Code/io``.
    func sandboxError(path: String) -> SandboxError {
        switch code & 0xff {
        case SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_FORMAT, SQLITE_SCHEMA:
            SandboxError(.corruptState, "\(path) is not a valid sandbox database (\(message)): restore it from a backup or run 'tally sandbox init' in a new directory")
        default:
            SandboxError(.io, "\(path): \(message)")
        }
    }
}
