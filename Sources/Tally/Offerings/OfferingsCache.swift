import Foundation
import TallyCore

/// The server's last offerings answer per placement, kept in the data directory (`offerings-cache.json`) with its
/// `ETag`: sent back as `If-None-Match` (a `304` costs no body), and shown while the server cannot be reached and
/// at cold start, before the network answers (``OfferingsSource/cache``).
///
/// A cache, not a record: replaced atomically (temporary file and rename, without fsync) after each new answer; a
/// lost or unreadable file only means the bundled catalog is shown until the server answers. Each entry names its
/// server, customer and placement (compared as UTF-8 bytes): an answer is never shown for another server or
/// customer (experiments and targeting chose it for that customer). At most ``maximumEntries``, the oldest dropped.
struct OfferingsCache: Codable, Sendable, Hashable {
    /// The file's name in the data directory.
    static let fileName = "offerings-cache.json"
    /// The format this engine writes.
    static let currentFormatVersion = 1
    /// The most answers kept (placements × customers); the oldest saved is dropped first.
    static let maximumEntries = 32

    /// One kept answer.
    struct Entry: Codable, Sendable, Hashable {
        /// The server's URL (``ServerLink/url``'s `absoluteString`).
        var serverURL: String
        /// The customer it was chosen for.
        var appUserId: String
        /// The placement asked for; nil: none.
        var placement: String?
        /// The answer's `ETag`, as received; nil when it carried none.
        var etag: String?
        /// When the server gave it (or last confirmed it with a 304), the device's clock.
        var savedAt: Date
        /// The answer's body (`GET /v1/offerings`), as received: read again with ``OfferingsAnswer/init(jsonData:)``.
        var body: String

        /// Whether this entry is the answer for `serverURL`, `appUserId` and `placement` (compared as bytes;
        /// no placement is not the empty one).
        func matches(serverURL: String, appUserId: String, placement: String?) -> Bool {
            self.serverURL.hasSameBytes(as: serverURL) && self.appUserId.hasSameBytes(as: appUserId)
                && (self.placement == nil) == (placement == nil)
                && (self.placement ?? "").hasSameBytes(as: placement ?? "")
        }
    }

    var formatVersion = Self.currentFormatVersion
    /// Oldest saved first.
    var entries: [Entry] = []

    /// The file in `directory`.
    static func path(in directory: URL) -> String {
        directory.appendingPathComponent(fileName).path
    }

    /// The kept answers in `directory`: empty when there is no file; empty and why when it cannot be used
    /// (unreadable, of a newer format).
    static func read(in directory: URL) -> (OfferingsCache, problem: String?) {
        let path = path(in: directory)
        guard let data = FileManager.default.contents(atPath: path) else { return (OfferingsCache(), nil) }
        guard let cache = try? JSONDecoder().decode(OfferingsCache.self, from: data) else {
            return (OfferingsCache(), "\(path) does not decode; the kept offerings are not shown until the server "
                + "answers again (the file is replaced then)")
        }
        guard cache.formatVersion <= currentFormatVersion else {
            return (OfferingsCache(), "\(path) has format version \(cache.formatVersion), written by a newer Tally; "
                + "not used")
        }
        return (cache, nil)
    }

    /// The kept answer for `server`, `appUserId` and `placement`.
    func entry(server: URL, appUserId: String, placement: String?) -> Entry? {
        entries.last { $0.matches(serverURL: server.absoluteString, appUserId: appUserId, placement: placement) }
    }

    /// Keeps `entry` in place of the one for its server, customer and placement, as the newest.
    mutating func set(_ entry: Entry) {
        entries.removeAll {
            $0.matches(serverURL: entry.serverURL, appUserId: entry.appUserId, placement: entry.placement)
        }
        entries.append(entry)
        if entries.count > Self.maximumEntries { entries.removeFirst(entries.count - Self.maximumEntries) }
    }

    /// Replaces the file in `directory`.
    func write(in directory: URL) throws(StoreError) {
        try POSIXFile.writeJSON(self, to: Self.path(in: directory), durable: false, naming: "the kept offerings")
    }
}
