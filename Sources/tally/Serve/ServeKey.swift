import Foundation
import TallyCrypto
import TallyServer

/// `tally serve key --role public|secret|dashboard [--name NAME]`: a new random key and its configuration entry.
enum ServeKey {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, flags: [], options: ["role", "name"])
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        guard let roleText = arguments.value("role") else { throw UsageError("missing --role public|secret|dashboard") }
        guard let role = KeyRole(rawValue: roleText) else {
            throw UsageError("--role must be public, secret or dashboard, not '\(roleText)'")
        }
        let name = arguments.value("name") ?? {
            switch role {
            case .public: "app"
            case .secret: "backend"
            case .dashboard: "dashboard"
            }
        }()
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("--name is empty") }
        var generator = SystemRandomNumberGenerator()
        let random = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let key = "tk_\(role.rawValue)_" + Base64URL.encode(random)
        let digest = ECDSA.sha256(Array(key.utf8)).map { String(format: "%02x", $0) }.joined()
        print(try Output.json(Entry(key: key, name: name, role: role.rawValue, sha256: digest), compact: true))
        return ExitCode.ok
    }

    private struct Entry: Encodable {
        var key: String
        var name: String
        var role: String
        var sha256: String
    }
}
