import Foundation
import TallyCore


/// The server's last customer state, kept in the data directory (`server-state.json`) so a store opened while
/// the server cannot be reached shows what the server last said (``StateSource/savedServerState``), not only
/// what this device bought.
///
/// A cache, not a record: it is replaced atomically (temporary file and rename, without fsync) after each
/// answer of the server that changed it; a lost or unreadable file only means the state falls back to the
/// customer file. It names its customer: a file saved for another `appUserId` is never shown.
struct SavedServerState: Codable, Sendable, Hashable {
    /// The file's name in the data directory.
    static let fileName = "server-state.json"
    /// The format this engine writes.
    static let currentFormatVersion = 1

    var formatVersion: Int
    /// The customer the state is of, compared as UTF-8 bytes.
    var appUserId: String
    /// When the server answered it (the store's clock).
    var savedAt: Date
    /// The server's customer state.
    var state: CustomerState

    init(appUserId: String, savedAt: Date, state: CustomerState) {
        formatVersion = Self.currentFormatVersion
        self.appUserId = appUserId
        self.savedAt = savedAt
        self.state = state
    }

    /// The file in `directory`.
    static func path(in directory: URL) -> String {
        directory.appendingPathComponent(fileName).path
    }

    /// The state saved in `directory` for `appUserId`: nil when there is none; why it cannot be used when the
    /// file is unreadable, of a newer format or of another customer (that last one silently: a switched customer).
    static func read(in directory: URL, for appUserId: String) -> Result<SavedServerState, SavedStateProblem>? {
        let path = path(in: directory)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let decoder = JSONDecoder()
        let saved: SavedServerState
        do { saved = try decoder.decode(SavedServerState.self, from: data) } catch {
            return .failure(SavedStateProblem(message: "\(path) does not decode (\(error)); the server's last "
                + "state is not shown until the server answers again"))
        }
        guard saved.formatVersion <= currentFormatVersion else {
            return .failure(SavedStateProblem(message: "\(path) has format version \(saved.formatVersion), "
                + "written by a newer Tally; not used"))
        }
        guard saved.appUserId.hasSameBytes(as: appUserId) else { return nil }
        return .success(saved)
    }

    /// Replaces the file in `directory` with this state.
    func write(in directory: URL) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(self) } catch {
            throw StoreError(.storage, "cannot encode the server's state: \(error)")
        }
        try POSIXFile.writeAtomically(data, to: Self.path(in: directory), durable: false)
    }

    /// The saved state as shown at `now`: an entitlement whose `expiresDate` has passed since is left out (the
    /// server would have ended it; a renewal it has not been able to tell shows again once it answers).
    static func shown(_ state: CustomerState, at now: Date) -> CustomerState {
        var state = state
        state.entitlements.removeAll { entitlement in entitlement.expiresDate.map { $0 <= now } ?? false }
        return state
    }
}

/// Why the saved server state cannot be used.
struct SavedStateProblem: Error, Sendable, Hashable {
    var message: String
}
