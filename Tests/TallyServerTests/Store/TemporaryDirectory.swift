import Foundation
import TallyCore
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage

/// A fresh directory under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory: Sendable {
    /// The directory's path.
    let path: String

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("tally-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The database file inside the directory.
    var database: String { (path as NSString).appendingPathComponent(SQLiteCustomerStore.fileName) }

    /// Opens the store on ``database``.
    func open(readers: Int = 4, credits: CurrencyCredits = StoreFixtures.credits,
              transferLimit: TransferLimit = TransferLimit()) throws -> SQLiteCustomerStore {
        try SQLiteCustomerStore(path: database, credits: credits, readers: readers, transferLimit: transferLimit)
    }
}
