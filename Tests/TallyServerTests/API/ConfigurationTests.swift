import Foundation
import TallyCore
import TallyHTTP
import TallyVerify
import TallySandbox
import Testing
@testable import TallyServer

@Suite("tally-server.json")
struct ConfigurationTests {
    static let hash = String(repeating: "ab", count: 32)

    /// A directory with the Market files and both sandbox roots (DER and PEM), and `json` as tally-server.json.
    func load(_ json: String) throws -> (Result<ServerConfiguration, ServerConfigurationError>, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let folder = URL(fileURLWithPath: directory.path)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("certs"),
                                                withIntermediateDirectories: true)
        for name in ["Market.storekit", "tally.json"] {
            try FileManager.default.copyItem(at: ServerFixture.marketDirectory.appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name))
        }
        let authority = try Signing.authority()
        try authority.rootDER.write(to: folder.appendingPathComponent("certs/root.cer"))
        try Data(authority.rootPEM.utf8).write(to: folder.appendingPathComponent("certs/root.pem"))
        let file = folder.appendingPathComponent("tally-server.json")
        try Data(json.utf8).write(to: file)
        return (Result { () throws(ServerConfigurationError) in try ServerConfiguration(contentsOf: file) }, directory)
    }

    @Test("a minimal file loads with the documented defaults; paths resolve against the file's directory")
    func defaults() throws {
        let (result, _) = try load("""
            {"storekit":"Market.storekit","appConfiguration":"tally.json","verification":{"appAppleId":42},
             "keys":[{"name":"app","role":"public","sha256":"\(Self.hash)"}]}
            """)
        let configuration = try result.get()
        #expect(configuration.listen == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(configuration.catalog.products.count == 8)
        #expect(configuration.verification.bundleId == "com.example.market")
        #expect(configuration.verification.environments == [.production])
        #expect(configuration.verification.roots.map(\.der) == [AppleRootCertificates.appleRootCAG3.der])
        #expect(configuration.verification.receiptRoots.map { Data($0.der) } == [ReceiptVerifier.appleIncRootCertificate])
        #expect(configuration.verification.onlineChecks == false)
        #expect(configuration.ownership == .transfer)
        #expect(configuration.keys == [APIKeyEntry(name: "app", role: .public, sha256: Array(repeating: 0xAB, count: 32))])
        #expect(configuration.limits == ServerLimits())
        #expect(configuration.limits.requestsPerSecond == 20 && configuration.limits.burst == 40)
        #expect(configuration.limits.maxBodyBytes == 1_048_576 && configuration.limits.maxJSONDepth == 32)
        #expect(configuration.threads == 4)
    }

    @Test("every key is read: listen, roots as DER and PEM, environments, ownership, limits, threads")
    func everything() throws {
        let (result, _) = try load("""
            {"listen":"[::1]:0","storekit":"Market.storekit","appConfiguration":"tally.json",
             "verification":{"bundleId":"com.example.other","environments":["Sandbox","Xcode"],
                             "roots":["certs/root.cer","certs/root.pem"],"receiptRoots":["certs/root.pem"],
                             "onlineChecks":true},
             "ownership":"keep","keys":[{"name":"b","role":"secret","sha256":"\(Self.hash.uppercased())"}],
             "rateLimit":{"requestsPerSecond":2.5,"burst":5},"limits":{"maxBodyBytes":1000,"maxJSONDepth":8},
             "threads":2}
            """)
        let configuration = try result.get()
        let root = try Signing.authority().rootDER
        #expect(configuration.listen == ListenAddress(host: "::1", port: 0))
        #expect(configuration.verification.bundleId == "com.example.other")
        #expect(configuration.verification.environments == [.sandbox, .xcode])
        #expect(configuration.verification.roots.map { Data($0.der) } == [root, root])
        #expect(configuration.verification.receiptRoots.map { Data($0.der) } == [root])
        #expect(configuration.verification.onlineChecks)
        #expect(configuration.ownership == .keep)
        #expect(configuration.keys.first?.role == .secret)
        #expect(configuration.limits == ServerLimits(requestsPerSecond: 2.5, burst: 5, maxBodyBytes: 1000, maxJSONDepth: 8))
        #expect(configuration.threads == 2)
    }

    @Test("every problem is listed in one error, each with its JSON path")
    func everyProblem() throws {
        let (result, _) = try load("""
            {"listen":"localhost","storekit":"Missing.storekit","appConfiguration":"tally.json","colour":1,
             "verification":{"environments":["Production","Staging","Production"],"roots":["certs/none.cer","tally.json"],
                             "onlineChecks":"yes","bundleID":"x"},
             "ownership":"share",
             "keys":[{"name":"a","role":"admin","sha256":"abc"},{"role":"public","sha256":"\(Self.hash)","extra":1},
                     {"name":"a","role":"public","sha256":"\(Self.hash)"}, 7],
             "rateLimit":{"requestsPerSecond":0,"burst":-1},"limits":{"maxBodyBytes":"big","maxJSONDepth":0},
             "threads":0}
            """)
        guard case .failure(let error) = result else {
            Issue.record("the configuration loaded")
            return
        }
        let paths = Set(error.problems.map(\.path))
        for path in ["listen", "storekit", "colour", "verification.environments[1]", "verification.environments[2]",
                     "verification.roots[0]", "verification.roots[1]", "verification.onlineChecks",
                     "verification.bundleID", "verification.appAppleId", "ownership", "keys[0].role", "keys[0].sha256",
                     "keys[1].name", "keys[1].extra", "keys[2].name", "keys[3]", "rateLimit.requestsPerSecond",
                     "rateLimit.burst", "limits.maxBodyBytes", "limits.maxJSONDepth", "threads"] {
            #expect(paths.contains(path), "\(path) missing from \(error.problems)")
        }
        #expect(error.description.hasPrefix("tally-server.json is not a usable server configuration:\n- "))
        #expect(error.description.contains("listen: must be HOST:PORT"))
    }

    @Test("missing required keys, a tally.json that does not match the catalog, and text that is not JSON")
    func requiredAndMismatch() throws {
        let (missing, _) = try load("{}")
        let paths = Set((missing.failure?.problems ?? []).map(\.path))
        #expect(paths == ["storekit", "appConfiguration", "keys", "verification.appAppleId"])
        let (_, directory) = try load("{}")
        try Data(#"{"bundleId":"com.example.market","entitlements":{"x":["market.nothing"]}}"#.utf8)
            .write(to: URL(fileURLWithPath: directory.path).appendingPathComponent("tally.json"))
        let file = URL(fileURLWithPath: directory.path).appendingPathComponent("tally-server.json")
        try Data("""
            {"storekit":"Market.storekit","appConfiguration":"tally.json","verification":{"environments":["Sandbox"]},
             "keys":[{"name":"a","role":"public","sha256":"\(Self.hash)"}]}
            """.utf8).write(to: file)
        do {
            _ = try ServerConfiguration(contentsOf: file)
            Issue.record("a tally.json naming a product outside the catalog loaded")
        } catch {
            #expect(error.problems.map(\.path) == ["appConfiguration"])
            #expect(error.problems.first?.message.contains("market.nothing") == true)
        }
        try Data("{not json".utf8).write(to: file)
        do {
            _ = try ServerConfiguration(contentsOf: file)
            Issue.record("text that is not JSON loaded")
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.description.contains("not JSON"))
        }
    }

    @Test("a repeated key or a trailing comma is not JSON, even where Foundation would read it")
    func strictText() throws {
        for json in [#"{"threads":2,"threads":3}"#, #"{"threads":2,}"#] {
            let (result, _) = try load(json)
            #expect(result.failure?.problems.map(\.path) == [""], "\(json)")
            #expect(result.failure?.description.contains("not JSON") == true, "\(json)")
        }
    }

    @Test("key digests are hex of either case; signs and fullwidth digits are not hex")
    func hexDigests() {
        #expect(ServerConfiguration.hexBytes("00fFa9") == [0x00, 0xFF, 0xA9])
        for text in ["+f", "-1", "0", "\u{FF10}\u{FF11}", "0g"] {
            #expect(ServerConfiguration.hexBytes(text) == nil, "\(text)")
        }
    }

    @Test("listen addresses", arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080), ("[::1]:0", "::1", 0), ("0.0.0.0:65535", "0.0.0.0", 65535),
    ])
    func listenAddresses(text: String, host: String, port: Int) {
        #expect(ListenAddress(text) == ListenAddress(host: host, port: port))
        #expect(ListenAddress(text)?.description == text)
    }

    @Test("bad listen addresses", arguments: ["8080", "host:", ":80", "h:65536", "h:-1", "::1:80", "h:+80", "a b:1"])
    func badListenAddresses(text: String) {
        #expect(ListenAddress(text) == nil)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
