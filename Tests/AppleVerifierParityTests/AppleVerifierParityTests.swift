import Foundation
import Tally
import TallyCore
import TallyCrypto
import TallySignedData
@testable import TallyStoreKit
import Testing
import TallyVerify

/// The Apple-path verifier (TallyStoreKit's `AppStoreVerifier` on CryptoKit and Security; on Linux their stand-ins
/// over OpenSSL) against TallyVerify's `SignedDataVerifier`: the same verdict — accepted with the same payload, or
/// refused for the same reason — for every JWS in `../shared/vectors` and for generated chains that are wrong.
@Suite("Apple-path verifier: the same verdicts as TallyVerify")
struct AppleVerifierParityTests {
    @Test("every JWS in ../shared/vectors, as every kind, in Sandbox, Production and Xcode, for its app and another")
    func sharedVectors() throws {
        try #require(!SharedVectors.files.isEmpty, "no JWS vectors found under \(SharedVectors.directory.path)")
        try #require(SharedVectors.roots.count == 2, "testCA.der of Apple's library tests is missing")
        var accepted = 0
        var refused = 0
        var disagreements: [String] = []
        for parity in SharedVectors.cases {
            let tally = try parity.tallyVerify()
            let apple = try parity.applePath()
            if tally != apple {
                disagreements.append("\(parity): TallyVerify \(tally), Apple path \(apple)")
            } else if !(try parity.typedAnswersAgree()) {
                disagreements.append("\(parity): the typed models differ")
            }
            if tally.isAccepted { accepted += 1 } else { refused += 1 }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements:\n\(disagreements.prefix(20).joined(separator: "\n"))")
        #expect(accepted > 0 && refused > 0)
        print("parity: \(SharedVectors.files.count) JWS files, \(SharedVectors.cases.count) cases, "
              + "\(accepted) accepted and \(refused) refused by TallyVerify, \(disagreements.count) disagreements")
    }

    @Test("Apple's real transactions verify through the Apple path at their signedDate against Apple Root CA - G3")
    func realAppleTransactionsVerify() throws {
        let real = SharedVectors.files.filter { $0.name.hasPrefix("apple-real/jws/transaction_com.goodheartapp") }
        try #require(!real.isEmpty)
        for file in real {
            let verifier = try AppStoreVerifier(bundleId: SharedVectors.bundleId(file.jws), environments: [.sandbox])
            let transaction = try verifier.verifiedTransaction(file.jws)
            #expect(transaction.transactionId == "2000000847061981")
        }
    }

    @Test("generated chains: both accept a good one and refuse every broken one for the same reason")
    func generatedChains() throws {
        let pki = try GeneratedPKI()
        let cases = try pki.cases()
        try #require(cases.count == 12)
        for (name, jws, shouldAccept) in cases {
            let parity = ParityCase(name: name, jws: jws, kind: .transaction, environment: .sandbox,
                                    bundleId: GeneratedPKI.bundleId, roots: [Data(pki.root.der)])
            let tally = try parity.tallyVerify()
            let apple = try parity.applePath()
            #expect(tally.isAccepted == shouldAccept, "\(name): TallyVerify \(tally)")
            #expect(apple.isAccepted == shouldAccept, "\(name): Apple path \(apple)")
            #expect(tally == apple, "\(name): TallyVerify \(tally), Apple path \(apple)")
            #expect(try parity.typedAnswersAgree(), "\(name)")
        }
    }

    @Test("the Apple path refuses a payload for another app or environment, and an empty or bad configuration")
    func claimsAndConfiguration() throws {
        let pki = try GeneratedPKI()
        let jws = try #require(try pki.chain().signer.sign(GeneratedPKI.transaction))
        let roots = [Data(pki.root.der)]
        let other = try AppStoreVerifier(bundleId: "com.example.other", environments: [.sandbox], rootCertificates: roots)
        #expect(other.verify(jws, as: JSONValue.self, kind: .transaction).failure?.reason == .invalidAppIdentifier)
        let production = try AppStoreVerifier(bundleId: GeneratedPKI.bundleId, appAppleId: 1, environments: [.production],
                                              rootCertificates: roots)
        #expect(production.verify(jws, as: JSONValue.self, kind: .transaction).failure?.reason == .invalidEnvironment)
        #expect(throws: StoreError.self) {
            try AppStoreVerifier(bundleId: GeneratedPKI.bundleId, environments: [.production], rootCertificates: roots)
        }
        #expect(throws: StoreError.self) {
            try AppStoreVerifier(bundleId: GeneratedPKI.bundleId, environments: [.sandbox], rootCertificates: [])
        }
        #expect(throws: StoreError.self) {
            try AppStoreVerifier(bundleId: GeneratedPKI.bundleId, environments: [.sandbox], rootCertificates: [Data([0x30, 0x00])])
        }
    }
}

extension Result {
    /// The failure, if any.
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

extension AppleVerifierParityTests {
    @Test("hostile variants of a good JWS (every character of header, payload and signature changed; truncations): same verdicts")
    func mutatedJWS() throws {
        let pki = try GeneratedPKI()
        let jws = Array(try #require(try pki.chain().signer.sign(GeneratedPKI.transaction)))
        var variants: [String] = []
        // Every 7th character changed to another base64url character (a '.' too, every 97th), and cut short.
        for index in stride(from: 0, to: jws.count, by: 7) {
            var changed = jws
            changed[index] = changed[index] == "A" ? "B" : "A"
            variants.append(String(changed))
            if index % 97 == 0 {
                changed[index] = "."
                variants.append(String(changed))
            }
            variants.append(String(jws.prefix(index)))
        }
        var accepted = 0
        for (number, variant) in variants.enumerated() {
            let parity = ParityCase(name: "variant \(number)", jws: variant, kind: .transaction, environment: .sandbox,
                                    bundleId: GeneratedPKI.bundleId, roots: [Data(pki.root.der)])
            let tally = try parity.tallyVerify()
            let apple = try parity.applePath()
            #expect(tally == apple, "variant \(number): TallyVerify \(tally), Apple path \(apple)")
            if tally.isAccepted { accepted += 1 }
        }
        #expect(variants.count >= 2 * (jws.count / 7))
        #expect(accepted < variants.count / 10, "almost every change must be refused")
    }
}
