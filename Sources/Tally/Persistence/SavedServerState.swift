import Foundation
import TallyCore


/// The server's last customer state, kept in the data directory (`server-state.json`) so a store opened while
/// the server cannot be reached shows what the server last said (``StateSource/savedServerState``), not only
/// what this device bought.
///
/// A cache, not a record: it is replaced atomically (temporary file and rename, without fsync) after each
/// answer of the server that changed it; a lost or unreadable file only means the state falls back to the
/// customer file. It names its server and customer: a file saved from another server URL or for another
/// `appUserId` (both compared as UTF-8 bytes) is never shown.
///
/// Since format 2 it keeps the server's answer as received (``SignedAnswer``: body and `Tally-Signature`). With a
/// pinned ``ServerLink/serverPublicKey`` the state shown is decoded from that body, and only while its signature
/// verifies and names this customer: an edited file, one copied from another customer or another server, or one
/// without a signature is ignored and reported (``StoreDiagnostic/Kind/savedServerStateUnverified``).
struct SavedServerState: Codable, Sendable, Hashable {
    /// The file's name in the data directory.
    static let fileName = "server-state.json"
    /// The format this engine writes.
    static let currentFormatVersion = 2

    var formatVersion: Int
    /// The server's URL (``ServerLink/url``'s `absoluteString`) the state came from, compared as UTF-8 bytes;
    /// nil in a file written before Tally kept it (not shown).
    var serverURL: String?
    /// The customer the state is of, compared as UTF-8 bytes.
    var appUserId: String
    /// When the server answered it (the store's clock).
    var savedAt: Date
    /// The server's customer state (believed only without a pinned key; with one, ``answer`` is decoded).
    var state: CustomerState
    /// The server's answer the state came in, with its signature; nil in a format-1 file.
    var answer: SignedAnswer?

    init(server: URL, appUserId: String, savedAt: Date, state: CustomerState, answer: SignedAnswer? = nil) {
        formatVersion = Self.currentFormatVersion
        serverURL = server.absoluteString
        self.appUserId = appUserId
        self.savedAt = savedAt
        self.state = state
        self.answer = answer
    }

    /// The file in `directory`.
    static func path(in directory: URL) -> String {
        directory.appendingPathComponent(fileName).path
    }

    /// The state saved in `directory` from `server` for `appUserId`: nil when there is none, or it is of another
    /// server or customer (silently: a switched customer, or an app pointed at another server); why it cannot
    /// be used when the file is unreadable or of a newer format. With `verifier` (the pinned key), the state is
    /// the kept answer's, and only when its signature verifies for `appUserId`; why not otherwise.
    static func read(in directory: URL, from server: URL, for appUserId: String, verifier: AnswerVerifier? = nil)
        -> Result<SavedServerState, SavedStateProblem>? {
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
        guard saved.serverURL?.hasSameBytes(as: server.absoluteString) == true,
              saved.appUserId.hasSameBytes(as: appUserId) else { return nil }
        guard let verifier else { return .success(saved) }
        return verified(saved, path: path, by: verifier)
    }

    /// `saved` with its state decoded from its kept answer, when the answer's signature verifies with the pinned
    /// key for its customer; why it is ignored otherwise.
    private static func verified(_ saved: SavedServerState, path: String, by verifier: AnswerVerifier)
        -> Result<SavedServerState, SavedStateProblem> {
        let ignored = "; it is ignored (not shown) until the server answers again"
        guard let answer = saved.answer else {
            return .failure(SavedStateProblem(message: "\(path) keeps no signed answer of the server\(ignored)",
                                              unverified: true))
        }
        do {
            _ = try verifier.verify(answer, nonce: nil, appUserId: saved.appUserId)
        } catch {
            return .failure(SavedStateProblem(message: "\(path) is not the server's signed state: \(error)"
                + ignored, unverified: true))
        }
        var believed = saved
        do { believed.state = try ServerCustomer.state(fromResponse: answer.body, now: saved.savedAt) } catch {
            return .failure(SavedStateProblem(message: "\(path)'s signed answer does not decode (\(error))"
                + ignored, unverified: true))
        }
        return .success(believed)
    }

    /// Replaces the file in `directory` with this state.
    func write(in directory: URL) throws(StoreError) {
        try POSIXFile.writeJSON(self, to: Self.path(in: directory), durable: false, naming: "the server's state")
    }

    /// The saved state as shown at `now`, by one rule — what ended at or before `now` has ended: an entitlement
    /// whose `expiresDate` has passed since is left out, a subscription whose period (or grace period) ended is
    /// `expired`, a non-renewing product whose time ran out is not active (the server would have ended them; a
    /// renewal it has not been able to tell shows again once it answers).
    static func shown(_ state: CustomerState, at now: Date) -> CustomerState {
        func ended(_ date: Date?) -> Bool { date.map { $0 <= now } ?? false }
        var state = state
        state.entitlements.removeAll { ended($0.expiresDate) }
        for index in state.subscriptions.indices {
            let subscription = state.subscriptions[index]
            switch subscription.status {
            case .subscribed where ended(subscription.expiresDate),
                 .inGracePeriod where ended(subscription.gracePeriodExpiresDate ?? subscription.expiresDate):
                state.subscriptions[index].status = .expired
            default: break
            }
        }
        for index in state.nonRenewing.indices where ended(state.nonRenewing[index].expiresDate) {
            state.nonRenewing[index].isActive = false
        }
        return state
    }
}

/// Why the saved server state cannot be used.
struct SavedStateProblem: Error, Sendable, Hashable {
    var message: String
    /// Whether the file reads but its signature does not verify with the pinned key (forged or foreign).
    var unverified = false
}
