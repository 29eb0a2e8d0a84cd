/// One configured API key: its name, role and the SHA-256 of the key (the key itself is never stored).
public struct APIKeyEntry: Sendable, Hashable {
    /// A name for logs and rate limits (`ios-app`).
    public var name: String
    /// What the key may do.
    public var role: KeyRole
    /// SHA-256 of the key's UTF-8 bytes, 32 bytes.
    public var sha256: [UInt8]

    /// Creates an entry.
    public init(name: String, role: KeyRole, sha256: [UInt8]) {
        self.name = name
        self.role = role
        self.sha256 = sha256
    }
}
