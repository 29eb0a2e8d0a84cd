/// The ids the engine makes for a customer before sign-up: `$tally:anon:` and 32 lowercase hex digits (128 random
/// bits). Nobody can guess one, so knowing it is the proof: such a customer needs no customer token even when
/// `customers.requireToken` is on.
public enum AnonymousCustomerId {
    /// What every anonymous id starts with.
    public static let prefix = "$tally:anon:"

    /// Whether `appUserId` is exactly an anonymous id (bytes compared; uppercase hex or any other length is not).
    public static func isAnonymous(_ appUserId: String) -> Bool {
        let bytes = Array(appUserId.utf8), prefix = Array(Self.prefix.utf8)
        guard bytes.count == prefix.count + 32, bytes.starts(with: prefix) else { return false }
        return bytes[prefix.count...].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
