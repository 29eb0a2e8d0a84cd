import Foundation
import TallyCore


/// The `appAccountToken`s the server minted for this device's customers (`account-tokens.json` in the data
/// directory), each named by its server URL and `appUserId` (compared as UTF-8 bytes): the engine asks
/// `POST …/account-token` once per customer and reuses the answer. A cache: a lost or unreadable file only means
/// the server is asked again (it answers the same token).
struct SavedAccountTokens: Codable, Sendable, Hashable {
    /// The file's name in the data directory.
    static let fileName = "account-tokens.json"
    /// The format this engine writes.
    static let currentFormatVersion = 1
    /// The most tokens kept (the newest): a device switches between few customers.
    static let maximumEntries = 64

    /// One customer's token.
    struct Entry: Codable, Sendable, Hashable {
        var serverURL: String
        var appUserId: String
        var appAccountToken: UUID
    }

    var formatVersion = Self.currentFormatVersion
    var tokens: [Entry] = []

    /// The file in `directory`; empty when there is none or it does not decode.
    static func read(in directory: URL) -> SavedAccountTokens {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(fileName).path),
              let saved = try? JSONDecoder().decode(SavedAccountTokens.self, from: data),
              saved.formatVersion <= currentFormatVersion else { return SavedAccountTokens() }
        return saved
    }

    /// The token kept for `appUserId` on `server`.
    func token(server: URL, appUserId: String) -> UUID? {
        tokens.last {
            $0.serverURL.hasSameBytes(as: server.absoluteString) && $0.appUserId.hasSameBytes(as: appUserId)
        }?.appAccountToken
    }

    /// Keeps `token` for `appUserId` on `server`, replacing an older one, dropping the oldest beyond the bound.
    mutating func set(_ token: UUID, server: URL, appUserId: String) {
        tokens.removeAll {
            $0.serverURL.hasSameBytes(as: server.absoluteString) && $0.appUserId.hasSameBytes(as: appUserId)
        }
        tokens.append(Entry(serverURL: server.absoluteString, appUserId: appUserId, appAccountToken: token))
        if tokens.count > Self.maximumEntries { tokens.removeFirst(tokens.count - Self.maximumEntries) }
    }

    /// Drops the token kept for `appUserId` on `server` (a customer logged out of this device).
    mutating func remove(server: URL, appUserId: String) {
        tokens.removeAll {
            $0.serverURL.hasSameBytes(as: server.absoluteString) && $0.appUserId.hasSameBytes(as: appUserId)
        }
    }

    /// Replaces the file in `directory`.
    func write(in directory: URL) throws(StoreError) {
        try POSIXFile.writeJSON(self, to: directory.appendingPathComponent(Self.fileName).path, durable: false,
                                naming: "the account tokens")
    }
}
