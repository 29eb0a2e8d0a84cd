import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TallyCore
import Testing
@testable import TallyVerify

/// Online revocation checks against local `openssl ocsp` responders on loopback. The test PKI (root →
/// intermediate → leaves, AIA pointing at the responders) is made with the `openssl` CLI in a temporary
/// directory for each run.
@Suite(.serialized, .enabled(if: OCSPTestPKI.opensslAvailable, "needs the openssl command"))
struct OCSPResponderTests {
    @Test func goodChainVerifiesOnlineAndTheAnswerIsCached() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        try pki.startResponders()
        let verifier = try pki.verifier()
        let jws = try pki.sign(leaf: "leaf")
        let first = verifier.verifyTransaction(jws)
        #expect(first.value != nil, "\(String(describing: first))")
        pki.stop()
        // Responders gone: the 15-minute cache still answers.
        #expect(verifier.verifyTransaction(jws).value != nil)
    }

    @Test func revokedLeafIsRejected() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        try pki.startResponders()
        let failure = try #require(try pki.verifier().verifyTransaction(try pki.sign(leaf: "revoked")).failure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.contains("leaf certificate") && failure.detail.contains("revoked"), "\(failure.detail)")
    }

    @Test func unreachableResponderIsRetryableUnlessSoftFail() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let jws = try pki.sign(leaf: "leaf")
        let failure = try #require(try pki.verifier().verifyTransaction(jws).failure)
        #expect(failure.reason == .retryableVerificationFailure)
        #expect(failure.detail.contains("intermediate"), "\(failure.detail)")
        #expect(try pki.verifier(policy: .softFail).verifyTransaction(jws).value != nil)
    }

    @Test func offlineVerifierNeverCallsTheResponder() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let verifier = try SignedDataVerifier(configuration: VerifierConfiguration(
            rootCertificates: [try pki.certificate("root")], bundleId: JWSTestPKI.bundleId, environment: .sandbox))
        #expect(verifier.verifyTransaction(try pki.sign(leaf: "revoked")).value != nil)
    }
}

/// A throw-away PKI with OCSP responders, made with the `openssl` command.
final class OCSPTestPKI {
    static let opensslAvailable: Bool = (try? OCSPTestPKI.run(["version"], in: FileManager.default.temporaryDirectory)) != nil

    let directory: URL
    let rootPort: Int
    let intermediatePort: Int
    private var responders: [Process] = []

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-ocsp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Ports the kernel says are free now (a random one could be an ephemeral port another connection holds).
        rootPort = Self.freePort() ?? Int.random(in: 20_000..<30_000)
        var second = Self.freePort() ?? Int.random(in: 30_000..<32_000)
        while second == rootPort { second = Self.freePort() ?? second + 1 }
        intermediatePort = second
        try makePKI()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A loopback TCP port no socket uses now: bound to port 0, read back, closed.
    static func freePort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func certificate(_ name: String) throws -> Certificate {
        try #require(Certificate.parseAll(try Data(contentsOf: directory.appendingPathComponent("\(name).pem"))).first)
    }

    func verifier(policy: RevocationPolicy = .hardFail) throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: VerifierConfiguration(
            rootCertificates: [try certificate("root")], bundleId: JWSTestPKI.bundleId, environment: .sandbox,
            onlineChecks: true, revocationPolicy: policy))
    }

    func sign(leaf: String) throws -> String {
        let key = try #require(PrivateKey(pemOrDER: try Data(contentsOf: directory.appendingPathComponent("\(leaf).key"))))
        let signer = JWSSigner(key: key, chain: [try certificate(leaf), try certificate("intermediate"), try certificate("root")])
        return try #require(signer.sign(JWSTestPKI.transaction(signedDate: Date())))
    }

    private func makePKI() throws {
        let config = """
        [root]
        basicConstraints = critical, CA:TRUE
        keyUsage = critical, keyCertSign, cRLSign
        [intermediate]
        basicConstraints = critical, CA:TRUE, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        authorityInfoAccess = OCSP;URI:http://127.0.0.1:\(rootPort)/
        1.2.840.113635.100.6.2.1 = ASN1:NULL
        [leaf]
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        authorityInfoAccess = OCSP;URI:http://127.0.0.1:\(intermediatePort)/
        1.2.840.113635.100.6.11.1 = ASN1:NULL
        """
        try config.write(to: directory.appendingPathComponent("ext.cnf"), atomically: true, encoding: .utf8)
        for name in ["root", "intermediate", "leaf", "revoked"] {
            try Self.run(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "\(name).key"], in: directory)
        }
        try Self.run(["req", "-x509", "-new", "-key", "root.key", "-subj", "/CN=Tally OCSP Test Root", "-days", "3650",
                      "-sha256", "-set_serial", "1", "-config", "ext.cnf", "-extensions", "root", "-out", "root.pem"],
                     in: directory)
        try issue("intermediate", serial: 2, issuer: "root", section: "intermediate")
        try issue("leaf", serial: 3, issuer: "intermediate", section: "leaf")
        try issue("revoked", serial: 4, issuer: "intermediate", section: "leaf")
        let expiry = "491231235959Z"
        try "V\t\(expiry)\t\t02\tunknown\t/CN=Tally OCSP Test Intermediate\n"
            .write(to: directory.appendingPathComponent("root-index.txt"), atomically: true, encoding: .utf8)
        try ("V\t\(expiry)\t\t03\tunknown\t/CN=leaf\n" + "R\t\(expiry)\t240101000000Z\t04\tunknown\t/CN=revoked\n")
            .write(to: directory.appendingPathComponent("intermediate-index.txt"), atomically: true, encoding: .utf8)
    }

    private func issue(_ name: String, serial: Int, issuer: String, section: String) throws {
        let subject = name == "intermediate" ? "/CN=Tally OCSP Test Intermediate" : "/CN=\(name)"
        try Self.run(["req", "-new", "-key", "\(name).key", "-subj", subject, "-out", "\(name).csr"], in: directory)
        try Self.run(["x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key",
                      "-set_serial", "\(serial)", "-days", "3000", "-sha256", "-extfile", "ext.cnf",
                      "-extensions", section, "-out", "\(name).pem"], in: directory)
    }

    /// Starts `openssl ocsp` for the root (answers about the intermediate) and the intermediate (about leaves).
    func startResponders() throws {
        for (ca, port) in [("root", rootPort), ("intermediate", intermediatePort)] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["openssl", "ocsp", "-index", "\(ca)-index.txt", "-port", "\(port)", "-rsigner", "\(ca).pem",
                                 "-rkey", "\(ca).key", "-CA", "\(ca).pem", "-nmin", "5"]
            process.currentDirectoryURL = directory
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            responders.append(process)
            try waitUntilListening(port, ca: ca)
        }
    }

    /// Polls with a well-formed OCSP request (a malformed one can stall the single-threaded responder).
    private func waitUntilListening(_ port: Int, ca: String) throws {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        let subject = try certificate(ca == "root" ? "intermediate" : "leaf")
        let body = try #require(OCSPRequest(certificate: subject, issuer: try certificate(ca)).der())
        for _ in 0..<100 {
            if case .success = OCSPHTTP.post(body, to: url, timeout: 2) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("openssl ocsp on port \(port) did not start")
    }

    /// Stops the responders this test started (by their own process ids).
    func stop() {
        for process in responders where process.isRunning {
            // `openssl ocsp` ignores SIGTERM while it waits for clients; SIGKILL our own child by its pid.
            #if canImport(Glibc)
            kill(process.processIdentifier, SIGKILL)
            #else
            process.interrupt()
            #endif
            process.waitUntilExit()
        }
        responders.removeAll()
    }

    @discardableResult
    static func run(_ arguments: [String], in directory: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw OCSPTestError(message: "openssl \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return process.terminationStatus
    }
}

struct OCSPTestError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
