import Foundation
import Testing

@Suite("tally serve: keys and start-up errors")
struct ServeKeyCLITests {
    /// SHA-256 hex of `text`, computed by coreutils, independently of Tally.
    func sha256(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    @Test("'serve key' prints a new key with its name, role and SHA-256")
    func key() throws {
        let first = try TallyProcess.run(["serve", "key", "--role", "secret", "--name", "backend"])
        #expect(first.status == 0)
        let entry = try first.json()
        #expect(Set(entry.keys) == ["key", "name", "role", "sha256"])
        let key = try #require(entry["key"] as? String)
        #expect(key.hasPrefix("tk_secret_"))
        #expect(key.count >= 50)
        #expect(entry["name"] as? String == "backend")
        #expect(entry["role"] as? String == "secret")
        #expect(entry["sha256"] as? String == (try sha256(key)))
        let second = try TallyProcess.run(["serve", "key", "--role", "public"])
        #expect(try second.json()["key"] as? String != key)
        #expect((try second.json()["key"] as? String)?.hasPrefix("tk_public_") == true)
    }

    @Test("usage mistakes exit 2 with a message on stderr")
    func usage() throws {
        for arguments in [["serve", "key", "--role", "admin"], ["serve", "key"], ["serve", "--data", "x"],
                          ["serve", "--config", "x.json"], ["serve", "--data", "d", "--config", "c", "--listen", "nope"]] {
            let output = try TallyProcess.run(arguments)
            #expect(output.status == 2, "\(arguments)")
            #expect(output.stderr.hasPrefix("tally serve: "), "\(arguments)")
        }
    }

    @Test("a bad configuration exits 2 listing every problem with its path")
    func badConfiguration() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("tally-server.json")
        try Data(#"{"storekit":"none.storekit","keys":[],"listn":"x"}"#.utf8).write(to: config)
        let output = try TallyProcess.run(["serve", "--data", directory.appendingPathComponent("data").path,
                                           "--config", config.path])
        #expect(output.status == 2)
        for path in ["storekit:", "appConfiguration:", "keys:", "listn:"] {
            #expect(output.stderr.contains("- \(path)"), "\(path)")
        }
        #expect(output.stdout.isEmpty)
    }
}

@Suite("tally serve signing-key")
struct ServeSigningKeyCLITests {
    @Test("'serve signing-key' writes a private P-256 key (0600, never over a file) and prints its public key")
    func signingKey() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-signing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("signing.pem")
        let made = try TallyProcess.run(["serve", "signing-key", "--out", file.path])
        #expect(made.status == 0, "\(made.stderr)")
        let printed = try made.json()
        #expect(Set(printed.keys) == ["privateKeyFile", "publicKey", "publicKeyX963"])
        let spkiText = try #require(printed["publicKey"] as? String)
        let x963Text = try #require(printed["publicKeyX963"] as? String)
        let spki = try #require(Data(base64Encoded: spkiText))
        let x963 = try #require(Data(base64Encoded: x963Text))
        #expect(spki.count == 91 && x963.count == 65 && x963.first == 0x04 && spki.suffix(65) == x963)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // openssl, independently: the file's public key is the printed one.
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "pkey", "-in", file.path, "-pubout", "-outform", "DER"]
        let out = Pipe()
        openssl.standardOutput = out
        try openssl.run()
        let der = out.fileHandleForReading.readDataToEndOfFile()
        openssl.waitUntilExit()
        #expect(der == spki)

        let before = try Data(contentsOf: file)
        let again = try TallyProcess.run(["serve", "signing-key", "--out", file.path])
        #expect(again.status != 0)
        #expect(again.stderr.contains("never replaced"), "\(again.stderr)")
        #expect(try Data(contentsOf: file) == before)
        let missing = try TallyProcess.run(["serve", "signing-key"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("missing --out FILE"))
    }
}
