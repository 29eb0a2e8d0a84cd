/// The ids the engine makes for a customer before sign-up: `$tally:anon:` and 32 lowercase hex digits (128 random
/// bits). Nobody can guess one, so knowing it is the proof: such a customer needs no customer token even when
/// `customers.requireToken` is on (until it is aliased to an identified customer, whose token it then needs).
public enum AnonymousCustomerId {
    /// What every anonymous id starts with.
    public static let prefix = "$tally:anon:"

    /// How many hex digits follow ``prefix``.
    public static let hexDigits = 32

    /// Whether `appUserId` is exactly an anonymous id (bytes compared; uppercase hex or any other length is not).
    public static func isAnonymous(_ appUserId: String) -> Bool {
        let bytes = appUserId.utf8, prefix = Self.prefix.utf8
        guard bytes.count == prefix.count + hexDigits, bytes.starts(with: prefix) else { return false }
        return bytes.dropFirst(prefix.count).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A new anonymous id: 128 bits from the system's cryptographic generator, as lowercase hex after ``prefix``.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(using: &generator)
    }

    /// A new anonymous id from `generator` (tests pass a seeded one; apps use ``make()``).
    public static func make<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let high = generator.next(), low = generator.next()
        return prefix + hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
