/// The bounds of a customer's attributes (email, display name, push token, campaign: the app's own strings), one
/// rule for the engine, which checks before it sends, and the server, which refuses what breaks it.
public enum CustomerAttributes {
    /// The longest key, in UTF-8 bytes.
    public static let maxKeyBytes = 64
    /// The most keys one customer keeps.
    public static let maxKeys = 100
    /// The longest value, in UTF-8 bytes.
    public static let maxValueBytes = 4_096

    /// Why `key` with `value` (nil: delete) cannot be set; nil when it can. A key is 1 to ``maxKeyBytes`` bytes
    /// without control characters; a value at most ``maxValueBytes`` bytes.
    public static func problem(key: String, value: String?) -> String? {
        let keyBytes = key.utf8.count
        if keyBytes == 0 { return "an attribute key is empty" }
        if keyBytes > maxKeyBytes {
            return "the attribute key '\(key.prefix(maxKeyBytes))…' is \(keyBytes) bytes; the limit is \(maxKeyBytes)"
        }
        if key.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return "the attribute key '\(key)' has a control character"
        }
        if let value, value.utf8.count > maxValueBytes {
            return "the value of the attribute '\(key)' is \(value.utf8.count) bytes; the limit is \(maxValueBytes)"
        }
        return nil
    }

    /// `current` with `changes` merged in (a nil value deletes its key), or why that breaks a bound (the first
    /// key at fault named, keys in byte order). Keys compare as bytes.
    public static func merged(_ current: [String: String], with changes: [String: String?])
        -> Result<[String: String], CustomerAttributesProblem>
    {
        var result = current
        for key in changes.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let value = changes[key] ?? nil
            if let problem = problem(key: key, value: value) { return .failure(CustomerAttributesProblem(key: key, message: problem)) }
            result[key] = value
        }
        if result.count > maxKeys {
            let added = changes.keys.filter { current[$0] == nil && result[$0] != nil }
                .sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            let key = added.last ?? ""
            return .failure(CustomerAttributesProblem(
                key: key, message: "setting '\(key)' makes \(result.count) attributes; the limit is \(maxKeys) per customer"))
        }
        return .success(result)
    }
}

/// Why attributes cannot be set: the key at fault and a message naming it.
public struct CustomerAttributesProblem: Error, Sendable, Equatable {
    /// The key at fault.
    public var key: String
    /// What is wrong, naming the key.
    public var message: String

    /// Creates a problem.
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }
}

extension CustomerAttributes {
    /// What an identified customer keeps of an aliased anonymous customer's attributes: its own win a clash, and
    /// the other's keys (in byte order) are added while fewer than ``maxKeys`` are kept. `added` lists those added.
    public static func adopting(_ other: [String: String], into own: [String: String])
        -> (attributes: [String: String], added: [(key: String, value: String)])
    {
        var result = own, added: [(key: String, value: String)] = []
        for key in other.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) where result[key] == nil {
            guard result.count < maxKeys, let value = other[key] else { break }
            result[key] = value
            added.append((key, value))
        }
        return (result, added)
    }
}
