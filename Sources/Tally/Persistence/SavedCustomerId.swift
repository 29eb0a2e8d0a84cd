import Foundation
import TallyCore


/// The customer the store speaks for when the app's ``ServerLink`` names none (`customer-id.json` in the data
/// directory): an anonymous id (``TallyCore/AnonymousCustomerId``) made at the first launch, the id of
/// ``Store/logIn(_:)`` or ``Store/switchCustomer(to:appAccountToken:)`` after one, a new anonymous id after
/// ``Store/logOut()``. Written atomically; a file that is missing or does not decode makes a new anonymous id.
struct SavedCustomerId: Codable, Sendable, Hashable {
    /// The file's name in the data directory.
    static let fileName = "customer-id.json"
    /// The format this engine writes.
    static let currentFormatVersion = 1

    var formatVersion = Self.currentFormatVersion
    /// The customer's id.
    var appUserId: String

    /// The id kept in `directory`, else a new anonymous one, written there first.
    static func currentOrNew(in directory: URL) throws(StoreError) -> String {
        if let data = FileManager.default.contents(atPath: directory.appendingPathComponent(fileName).path),
           let saved = try? JSONDecoder().decode(SavedCustomerId.self, from: data),
           saved.formatVersion <= currentFormatVersion, !saved.appUserId.isEmpty {
            return saved.appUserId
        }
        let fresh = AnonymousCustomerId.make()
        try SavedCustomerId(appUserId: fresh).write(in: directory)
        return fresh
    }

    /// Replaces the file in `directory`, durably (the id owns purchases made before sign-up).
    func write(in directory: URL) throws(StoreError) {
        try POSIXFile.writeJSON(self, to: directory.appendingPathComponent(Self.fileName).path, naming: "the customer id")
    }
}
