import Foundation
import TallyCrypto
import TallyServer

/// `tally serve customer-token --config FILE --user ID [--seconds N] [--key ID] [--private-key FILE]`: a customer
/// token signed with one of the configuration's `customers.tokenKeys`, as an app's backend would issue it (for
/// tests and the demo); `tally serve customer-token --new-secret FILE`: a new HS256 secret file.
enum ServeCustomerToken {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, flags: [],
                                      options: ["config", "user", "seconds", "key", "private-key", "new-secret"])
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        if let path = arguments.value("new-secret") { return try newSecret(at: path) }
        guard let configPath = arguments.value("config") else { throw UsageError("missing --config FILE") }
        guard let user = arguments.value("user"), !user.isEmpty else { throw UsageError("missing --user ID") }
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration(contentsOf: URL(fileURLWithPath: configPath))
        } catch {
            Output.error("tally serve: \(error.description)")
            return ExitCode.usage
        }
        let settings = configuration.customers
        var seconds = 3_600
        if let text = arguments.value("seconds") {
            guard let value = Int(text), value >= 1, value <= settings.maximumTokenSeconds else {
                throw UsageError("--seconds must be a whole number from 1 to \(settings.maximumTokenSeconds) "
                    + "(customers.maximumTokenSeconds)")
            }
            seconds = value
        }
        let wanted = arguments.value("key")
        let candidates = settings.tokenKeys.filter { wanted == nil || $0.id == wanted }
        guard var key = candidates.first else {
            throw UsageError(settings.tokenKeys.isEmpty ? "the configuration has no customers.tokenKeys"
                : "no customers.tokenKeys entry has the id '\(wanted ?? "")'")
        }
        if key.algorithm == .es256 {
            guard let path = arguments.value("private-key") else {
                throw UsageError("an ES256 token key signs with its private key: add --private-key FILE (PEM or DER)")
            }
            guard let data = FileManager.default.contents(atPath: path),
                  let privateKey = try? PrivateKey.parse(pemOrDER: data), let publicKey = privateKey.publicKey else {
                throw UsageError("--private-key \(path) is not a readable P-256 private key")
            }
            key = .es256(id: key.id, publicKey: publicKey, privateKey: privateKey)
        }
        let now = Date()
        let token = CustomerToken(appUserId: user, audience: settings.audience, issuedAt: now,
                                  expiresAt: now.addingTimeInterval(TimeInterval(seconds)))
        print(try token.signed(with: key))
        return ExitCode.ok
    }

    /// Writes 32 random bytes as base64 to `path` (mode 0600), refusing to overwrite a file.
    private static func newSecret(at path: String) throws -> Int32 {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw UsageError("\(path) exists; choose a new file (a secret is never overwritten)")
        }
        guard FileManager.default.createFile(atPath: path, contents: CustomerTokenKey.newSecretFile(),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw UsageError("cannot write \(path)")
        }
        print(#"{"alg":"HS256","secretFile":"# + "\"\(path)\"}")
        return ExitCode.ok
    }
}
