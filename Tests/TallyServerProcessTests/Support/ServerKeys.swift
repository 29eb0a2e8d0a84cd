import Foundation
import TallyCrypto

/// One random public key and one random secret key; the configuration holds only their SHA-256.
struct ServerKeys: Sendable {
    /// The key the app ships (post transactions, read state).
    let publicKey: String
    /// The backend's key (everything, including spends and history).
    let secretKey: String
    /// The dashboard's key (read-only).
    let dashboardKey: String

    init() {
        publicKey = "tk_public_" + Self.randomHex()
        secretKey = "tk_secret_" + Self.randomHex()
        dashboardKey = "tk_dashboard_" + Self.randomHex()
    }

    /// The `keys` entries of the configuration.
    var configurationEntries: [[String: Any]] {
        [["name": "ios-app", "role": "public", "sha256": Self.sha256Hex(publicKey)],
         ["name": "backend", "role": "secret", "sha256": Self.sha256Hex(secretKey)],
         ["name": "dashboard", "role": "dashboard", "sha256": Self.sha256Hex(dashboardKey)]]
    }

    /// The lowercase hex SHA-256 of the key's UTF-8 bytes.
    static func sha256Hex(_ key: String) -> String {
        ECDSA.sha256(Array(key.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// 32 random bytes as hex.
    static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
