import Foundation
import Testing

/// Locates the shared receipt vectors (`<package root>/../shared/vectors/…`) and this suite's fixtures.
enum ReceiptVectors {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `<package root>/../shared/vectors` (as CI lays it out); from a git worktree nested one level
    /// deeper, the nearest ancestor's `shared/vectors`.
    static let shared: URL = {
        var directory = packageRoot.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("shared/vectors")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors")
    }()
    static let realReceipts = shared.appendingPathComponent("apple-real/receipts")
    static let tamperedReceipt = shared.appendingPathComponent(
        "apple-real/negative/derived_tampered_receipt_org.getpure.pure-iphone_2024-02-23.b64")
    static let xcodeDirectory = shared.appendingPathComponent(
        "apple-server-library/swift/Tests/AppStoreServerLibraryTests/resources/xcode")
    static let appleRootFile = shared.appendingPathComponent("apple-real/certs/Apple_Root_CA_20060425-20350209_2.cer")
    static let appleRootG3File = shared.appendingPathComponent(
        "apple-real/certs/Apple_Root_CA_-_G3_20140430-20390430_2dc5fc88d2c54b95.cer")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Receipts")

    /// File names (without `.b64`) of every real receipt vector, sorted.
    static func realReceiptNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: realReceipts.path)) ?? []
        return files.filter { $0.hasSuffix(".b64") }.map { String($0.dropLast(4)) }.sorted()
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    static func realReceipt(_ name: String) throws -> String {
        try text(realReceipts.appendingPathComponent(name + ".b64"))
    }

    static func decoded(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: realReceipts.appendingPathComponent(name + ".decoded.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func xcodeReceipt(_ name: String) throws -> String {
        try text(xcodeDirectory.appendingPathComponent(name))
    }

    static func storeKitTestCertificate() throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent("StoreKitTestCertificate.cer"))
    }

    static let pdfifyEmpty = "receipt_ProductionSandbox_de.holtwick.mac.PDFify_2020-10-30_9d598794"
    static let getpure = "receipt_Production_org.getpure.pure-iphone_2024-02-23_cc209380"
    static let omnichess2015Leaf = "receipt_ProductionSandbox_club.omnichess.ios_2022-05-08_bb265952"
}

@Suite("Receipt vectors")
struct ReceiptVectorsTests {
    @Test("the shared vectors hold 20 real receipts, each with its decoded dump")
    func vectorsArePresent() throws {
        let names = ReceiptVectors.realReceiptNames()
        #expect(names.count == 20)
        for name in names {
            #expect(FileManager.default.fileExists(
                atPath: ReceiptVectors.realReceipts.appendingPathComponent(name + ".decoded.json").path))
        }
    }
}
