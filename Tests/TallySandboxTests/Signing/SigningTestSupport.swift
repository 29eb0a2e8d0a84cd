import Foundation
import TallyCore
import Testing

/// Helpers shared by the Signing*Tests suites: temporary directories, external commands, JWS parts.
enum SigningTestSupport {
    /// This folder (`Tests/TallySandboxTests/Signing`).
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// A fresh empty directory, removed by the caller with `remove`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tally-signing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Deletes `url`, ignoring a directory that is already gone.
    static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// What an external command printed, and how it exited.
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments` through `/usr/bin/env` (so PATH finds `openssl`, `python3`) and waits.
    static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Decodes a base64url segment (no padding) of a compact JWS.
    static func base64URLDecode(_ segment: Substring) -> Data? {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }

    /// DER `ECDSA-Sig-Value` (SEQUENCE of two INTEGERs) for a raw 64-byte r‖s, written independently
    /// of the code under test so `openssl dgst` can check the signature.
    static func derSignature(raw: Data) -> Data {
        func integer(_ bytes: Data) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
        return Data([0x30, UInt8(body.count)] + body)
    }

    /// A sandbox auto-renewable purchase signed now, the way the store will produce it.
    static func sampleTransaction(bundleId: String, now: Date) -> StoreTransaction {
        StoreTransaction(
            transactionId: "2000000000000042", webOrderLineItemId: "2000000000000043", bundleId: bundleId,
            productId: "com.example.pro.monthly", subscriptionGroupIdentifier: "21500000",
            purchaseDate: Date(millisecondsSince1970: 1_760_000_000_000),
            originalPurchaseDate: Date(millisecondsSince1970: 1_760_000_000_000),
            expiresDate: Date(millisecondsSince1970: 1_762_592_000_000), type: .autoRenewable,
            appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138", signedDate: now,
            environment: .sandbox, storefront: "USA", storefrontId: "143441", transactionReason: .purchase,
            currency: "USD", price: 9990, appTransactionId: "704000000000000001")
    }

    /// The renewal info of ``sampleTransaction(bundleId:now:)``.
    static func sampleRenewalInfo(now: Date) -> RenewalInfo {
        RenewalInfo(
            originalTransactionId: "2000000000000042", productId: "com.example.pro.monthly",
            autoRenewStatus: .on, signedDate: now, environment: .sandbox,
            recentSubscriptionStartDate: Date(millisecondsSince1970: 1_760_000_000_000),
            renewalDate: Date(millisecondsSince1970: 1_762_592_000_000), currency: "USD", renewalPrice: 9990,
            appTransactionId: "704000000000000001")
    }
}
