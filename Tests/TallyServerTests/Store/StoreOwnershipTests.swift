import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

@Suite("Customer store (SQLite and PostgreSQL): ownership policies")
struct StoreOwnershipTests {
    /// A store where u1 owns chain p1 (two periods) and the coins purchase c1.
    private func owned(_ kind: StoreKind) throws -> (StoreUnderTest, any CustomerStore) {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.period("p1", original: "p1", month: 0), F.period("p2", original: "p1", month: 1),
                              F.coins("c1")], for: "u1", policy: .transfer, at: F.start)
        return (directory, store)
    }

    private func ids(_ record: CustomerRecord) -> Set<String> {
        Set(record.transactions.map(\.transaction.transactionId))
    }

    @Test(arguments: StoreKind.tested) func transferMovesTheWholeChainAndRecordsItForBoth(_ kind: StoreKind) throws {
        let (directory, store) = try owned(kind)
        let outcome = try store.record([F.period("p3", original: "p1", month: 2)], for: "u2", policy: .transfer,
                                       at: F.day(60))
        let move = OwnershipTransfer(originalTransactionId: "p1", fromAppUserId: "u1", toAppUserId: "u2", date: F.day(60))
        #expect(outcome == RecordOutcome(inserted: ["p3"], transfers: [move]))
        let winner = try store.customer("u2")
        let loser = try store.customer("u1")
        #expect(ids(winner) == ["p1", "p2", "p3"])
        #expect(ids(loser) == ["c1"])
        #expect(winner.transfers == [move])
        #expect(loser.transfers == [move])
        #expect(winner.version == 1)
        #expect(loser.version == 2)
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func transferOfAnUnchangedCopyStillMovesIt(_ kind: StoreKind) throws {
        let (directory, store) = try owned(kind)
        let outcome = try store.record([F.period("p1", original: "p1", month: 0)], for: "u2", policy: .transfer,
                                       at: F.day(1))
        #expect(outcome.unchanged == ["p1"])
        #expect(outcome.transfers.map(\.originalTransactionId) == ["p1"])
        #expect(ids(try store.customer("u2")) == ["p1", "p2"])
        // Posting it back moves it back: each move is recorded.
        _ = try store.record([F.period("p1", original: "p1", month: 0)], for: "u1", policy: .transfer, at: F.day(2))
        #expect(try store.customer("u1").transfers.map(\.toAppUserId) == ["u2", "u1"])
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func keepLeavesTheChainWithItsOwner(_ kind: StoreKind) throws {
        let (directory, store) = try owned(kind)
        let before = try store.customer("u1")
        let outcome = try store.record([F.period("p3", original: "p1", month: 2), F.coins("c2")], for: "u2",
                                       policy: .keep, at: F.day(60))
        #expect(outcome == RecordOutcome(inserted: ["c2"], kept: ["p3"], ownersUpdated: ["u1"]))
        // The chain's new period is Apple's fact about u1's subscription: it joins u1's chain.
        let owner = try store.customer("u1")
        #expect(ids(owner) == ["p1", "p2", "p3", "c1"])
        #expect(owner.version == before.version + 1)
        #expect(owner.transfers.isEmpty)
        let other = try store.customer("u2")
        #expect(ids(other) == ["c2"])
        #expect(other.transfers.isEmpty)
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func keepWithNothingElseChangesNothing(_ kind: StoreKind) throws {
        let (directory, store) = try owned(kind)
        let outcome = try store.record([F.coins("c1")], for: "u2", policy: .keep, at: F.day(1))
        #expect(outcome == RecordOutcome(kept: ["c1"]))
        #expect(!outcome.changedAnything)
        #expect(try store.customer("u2") == CustomerRecord(appUserId: "u2"))
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func aPurchaseWithAMintedTokenIsCreditedToItsMinterWhoeverPostsIt(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let token = try store.mintAccountToken(for: "u1", candidate: "6e3b1a52-0000-4000-8000-000000000001")
        #expect(try store.mintAccountToken(for: "u1", candidate: AccountToken.mint()) == token, "one token for good")
        #expect(try store.accountToken(of: "u1") == token)
        #expect(try store.owner(ofToken: token.uppercased()) == "u1", "compared as a UUID")
        let outcome = try store.record([F.coins("t2", token: token.uppercased())], for: "u2", policy: .keep, at: F.day(1))
        // Bought with u1's minted token: the App Store says u1 bought it, so u1 is credited, not the poster.
        #expect(outcome == RecordOutcome(kept: ["t2"], ownersUpdated: ["u1"]))
        #expect(ids(try store.customer("u1")) == ["t2"])
        #expect(ids(try store.customer("u2")).isEmpty)
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func aTokenNeverMintedCarriesNoAuthorityAndIsNeverGivenByAPost(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let token = "6E3B1A52-0000-4000-8000-000000000003"  // chosen by an app (or derived from an appUserId)
        _ = try store.record([F.premium("t1", token: token)], for: "attacker", policy: .keep, at: F.start)
        #expect(try store.owner(ofToken: token) == nil, "a post gives no token")
        let outcome = try store.record([F.coins("t2", token: token)], for: "victim", policy: .keep, at: F.day(1))
        #expect(outcome.inserted == ["t2"] && outcome.kept.isEmpty)
        #expect(ids(try store.customer("victim")) == ["t2"])
        #expect(ids(try store.customer("attacker")) == ["t1"])
        #expect(try store.owner(ofToken: "not-a-uuid") == nil)
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func underTransferARestorablePurchaseMovesOnlyItsOwnChainNeverTheToken(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let token = try store.mintAccountToken(for: "u1", candidate: AccountToken.mint())
        _ = try store.record([F.premium("t1", token: token), F.coins("t0", token: token), F.coins("t4")], for: "u1",
                             policy: .transfer, at: F.start)
        // Another restorable purchase carrying u1's token (or any token) posted by u2 moves none of u1's chains.
        let outcome = try store.record([F.premium("t2", token: token)], for: "u2", policy: .transfer, at: F.day(1))
        #expect(outcome.inserted == ["t2"])
        #expect(outcome.transfers.isEmpty)
        #expect(ids(try store.customer("u1")) == ["t1", "t0", "t4"])
        #expect(ids(try store.customer("u2")) == ["t2"])
        // The token is still u1's: a new purchase with it posted by u2 under keep is credited to u1.
        let coins = try store.record([F.coins("t3", token: token)], for: "u2", policy: .keep, at: F.day(2))
        #expect(coins == RecordOutcome(kept: ["t3"], ownersUpdated: ["u1"]))
        #expect(try store.owner(ofToken: token) == "u1")
    }

    @Test(arguments: StoreKind.tested) func aConsumablePostedByAnotherCustomerStaysWithItsFirstOwnerUnderTransfer(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.coins("c1")], for: "u1", policy: .transfer, at: F.start)
        let outcome = try store.record([F.coins("c1")], for: "u2", policy: .transfer, at: F.day(1))
        #expect(outcome == RecordOutcome(kept: ["c1"]))
        #expect(ids(try store.customer("u1")) == ["c1"])
        #expect(ids(try store.customer("u2")).isEmpty)
        #expect(try store.customer("u1").transfers.isEmpty)
    }

    @Test(arguments: StoreKind.tested) func underKeepARefundPostedByAnotherCustomerStillRevokesTheOwnersCopy(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.premium("t1")], for: "u1", policy: .keep, at: F.start)
        let refund = F.premium("t1", revokedAt: F.day(3))
        let outcome = try store.record([refund], for: "u2", policy: .keep, at: F.day(4))
        #expect(outcome == RecordOutcome(kept: ["t1"], ownersUpdated: ["u1"]))
        let owner = try store.customer("u1")
        #expect(owner.transactions.map(\.transaction.revocationDate) == [F.day(3)])
        #expect(try store.customer("u2") == CustomerRecord(appUserId: "u2"))
        // The same refund again changes nothing for anyone.
        #expect(try store.record([refund], for: "u2", policy: .keep, at: F.day(5)) == RecordOutcome(kept: ["t1"]))
        _ = directory
    }
}
