import Foundation
import TallyCrypto

/// The in-app purchase keys the simulated App Store Server API accepts, kept in `DIR/api-keys.json` beside the
/// sandbox (public halves only); `tally sandbox api-key` makes one and writes its private key to
/// `DIR/api-keys/KEY_ID.p8`, the file an App Store Connect key download would be.
public struct SandboxAPIKeys: Sendable {
    /// One registered key.
    public struct Entry: Codable, Sendable, Hashable {
        /// The key id (`kid`), ten characters like App Store Connect's.
        public var keyId: String
        /// The issuer id (`iss`), a UUID.
        public var issuerId: String
        /// The public key's SubjectPublicKeyInfo, base64.
        public var publicKey: String
    }

    /// A key just made: what a client needs to call the API.
    public struct Created: Sendable {
        /// The key id.
        public var keyId: String
        /// The issuer id.
        public var issuerId: String
        /// The private key, PEM (PKCS#8).
        public var privateKeyPEM: String
        /// Where the private key was written.
        public var privateKeyPath: String
    }

    /// The data directory.
    public let directory: URL

    /// The keys of the sandbox in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    private var file: URL { directory.appendingPathComponent("api-keys.json") }

    /// The registered keys; empty when none was made.
    public func entries() throws -> [Entry] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try JSONDecoder().decode([Entry].self, from: Data(contentsOf: file))
    }

    /// Makes a P-256 key, registers its public half and writes the private half (mode 0600).
    public func create() throws -> Created {
        let key = try PrivateKey.newP256()
        guard let publicKey = key.publicKey else { throw CryptoError(call: "EVP_PKEY", reason: "no public key") }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        let keyId = String((0..<10).map { _ in alphabet.randomElement(using: &generator)! })
        let entry = Entry(keyId: keyId, issuerId: UUID().uuidString.lowercased(),
                          publicKey: Data(publicKey.spki).base64EncodedString())
        let folder = directory.appendingPathComponent("api-keys", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pem = try key.pem()
        let path = folder.appendingPathComponent("\(keyId).p8")
        try Data(pem.utf8).write(to: path, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path.path)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(try entries() + [entry]).write(to: file, options: .atomic)
        return Created(keyId: keyId, issuerId: entry.issuerId, privateKeyPEM: pem, privateKeyPath: path.path)
    }

    /// The public keys by key id, with their issuer ids; an entry whose key does not parse is left out.
    public func verificationKeys() throws -> [String: (key: PublicKey, issuerId: String)] {
        var keys: [String: (key: PublicKey, issuerId: String)] = [:]
        for entry in try entries() {
            guard let der = Data(base64Encoded: entry.publicKey), let key = PublicKey(spki: der), key.isP256 else { continue }
            keys[entry.keyId] = (key, entry.issuerId)
        }
        return keys
    }
}
