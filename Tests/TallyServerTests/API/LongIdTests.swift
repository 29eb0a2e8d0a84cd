import Foundation
import TallyCore
import Testing
@testable import TallyServer

/// An id longer than the store can index (PostgreSQL's index entries hold about 2.7 KB) is the client's
/// problem, not the server's: a typed 422 that leaves `/readyz` ready, never a 503 that a client could use to
/// make the server look broken.
@Suite("Ids longer than the store can keep")
struct LongIdTests {
    /// 16,000 bytes that do not compress (PostgreSQL compresses index entries before the limit applies).
    private static let longId: String = {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<16_000).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
    }()

    @Test(arguments: StoreKind.tested)
    func aTooLongCustomerIdIsRefusedAndTheServerStaysReady(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let long = try fixture.post(Purchases.coins("4001", at: ServerFixture.start.addingTimeInterval(-60)), for: Self.longId)
        switch kind {
        case .sqlite:
            #expect(long.status == 200, "SQLite keeps any id the API accepts")
        case .postgres:
            #expect(long.status == 422 && long.errorCode == "too_large_for_store", "\(long.json)")
        }
        #expect(fixture.send("GET", "/readyz", key: nil).status == 200, "a client's long id is not a store failure")
        let normal = try fixture.post(Purchases.coins("4002", at: ServerFixture.start.addingTimeInterval(-60)), for: "short")
        #expect(normal.status == 200)
    }
}
