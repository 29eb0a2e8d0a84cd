import Foundation
import Testing
@testable import Tally
import TallyCore

/// A renewal info in the customer file counts only when its signed form verifies as signing exactly it: a line or
/// snapshot entry added or altered by hand is ignored and reported, and requests no restore (the store's next
/// subscription status brings signed renewal infos).
@Suite("Customer file: forged renewal infos")
struct CustomerFileRenewalForgeryTests {
    static func renewal(_ chain: String, billingRetry: Bool = false) -> RenewalInfo {
        RenewalInfo(originalTransactionId: chain, productId: Shop.proMonthly, autoRenewStatus: .off,
                    isInBillingRetryPeriod: billingRetry,
                    gracePeriodExpiresDate: billingRetry ? Date(timeIntervalSince1970: 4_102_444_800) : nil,
                    signedDate: Shop.start)
    }

    @Test("a renewal info line without a signed form, altered, or with another chain's, grants nothing")
    func forgedLines() throws {
        let directory = Shop.directory()
        let info = Self.renewal("1")
        let jws = CustomerFileTests.signatures.sign(info)
        let path = try CustomerFileTests.journal([CustomerFileTests.signed("1"),
                                                  .renewalInfo(info, jwsRepresentation: jws)], in: directory)
        try CustomerFileForgeryTests.append(.renewalInfo(Self.renewal("1", billingRetry: true),
                                                         jwsRepresentation: nil), to: path)
        try CustomerFileForgeryTests.append(.renewalInfo(Self.renewal("1", billingRetry: true),
                                                         jwsRepresentation: jws), to: path)
        try CustomerFileForgeryTests.append(.renewalInfo(Self.renewal("7", billingRetry: true),
                                                         jwsRepresentation: jws), to: path)
        try CustomerFileForgeryTests.append(.renewalInfo(Self.renewal("8", billingRetry: true),
                                                         jwsRepresentation: "eyJhbGciOiJFUzI1NiJ9.e30.AAAA"), to: path)

        let (record, diagnostics) = try CustomerFileTests.open(directory)
        #expect(record.renewalInfos == ["1": StoredRenewalInfo(renewalInfo: info, jwsRepresentation: jws)])
        #expect(record.history.renewalInfos == [info])
        #expect(diagnostics.map(\.kind) == [.unverifiedRenewalInfo])
        let message = try #require(diagnostics.first?.message)
        let name = "renewal info of chain"
        #expect(message.contains("line 3 (\(name) 1, \(Shop.proMonthly)) has no signed form"), "\(message)")
        #expect(message.contains("line 4 (\(name) 1, \(Shop.proMonthly)) differs from its signed form"))
        #expect(message.contains("line 5 (\(name) 7, \(Shop.proMonthly)) carries the signed form of the renewal "
            + "info of chain 1"))
        #expect(message.contains("line 6 (\(name) 8, \(Shop.proMonthly)) has a signed form that does not verify"))
        #expect(!record.needsRestore, "no restore: the next subscription status brings signed renewal infos")
        #expect(diagnostics.first?.movedTo?.lastPathComponent.hasPrefix("customer.journal.unverified-") == true)
        // The ignored lines are gone from the compacted file: the next open reports nothing.
        #expect(try CustomerFileTests.open(directory).1.isEmpty)
    }

    @Test("a format 2 snapshot's bare renewal info loads, is dropped and reported; the file is rewritten as format 3")
    func legacySnapshot() throws {
        let directory = Shop.directory()
        _ = try CustomerFileTests.journal([CustomerFileTests.signed("1")], in: directory)
        _ = try CustomerFileTests.open(directory)  // folds the journal into customer.json
        let snapshot = directory.appendingPathComponent(CustomerFile.snapshotName)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: snapshot)) as? [String: Any])
        json["formatVersion"] = 2
        json["renewalInfos"] = ["1": try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.renewal("1")))]
        try JSONSerialization.data(withJSONObject: json).write(to: snapshot)

        let (record, diagnostics) = try CustomerFileTests.open(directory)
        #expect(record.transactions.ids == ["1"])
        #expect(record.renewalInfos.isEmpty)
        #expect(diagnostics.map(\.kind) == [.unverifiedRenewalInfo])
        #expect(diagnostics.first?.message.contains("renewal info of chain 1, \(Shop.proMonthly) has no signed form")
            == true, "\(diagnostics)")
        #expect(!record.needsRestore)
        let rewritten = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: snapshot)) as? [String: Any])
        #expect(rewritten["formatVersion"] as? Int == 3)
        #expect(try CustomerFileTests.open(directory).1.isEmpty)
    }

    @Test("a signed renewal info survives the snapshot: written with its signed form, read back verified")
    func signedRoundTrip() throws {
        let directory = Shop.directory()
        let info = Self.renewal("1", billingRetry: true)
        _ = try CustomerFileTests.journal([.renewalInfo(info, jwsRepresentation: CustomerFileTests.signatures.sign(info))],
                                          in: directory)
        _ = try CustomerFileTests.open(directory)  // folds the journal into customer.json
        let (record, diagnostics) = try CustomerFileTests.open(directory)
        #expect(diagnostics.isEmpty)
        #expect(record.history.renewalInfos == [info])
    }
}
