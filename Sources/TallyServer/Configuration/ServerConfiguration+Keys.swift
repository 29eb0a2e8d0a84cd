import TallyCore

extension ServerConfiguration {
    static let keyKeys = ["name", "role", "sha256"]
    static var rateLimitKeys: [String] { rateKeys.map(\.0) + burstKeys.map(\.0) }
    static let limitsKeys = ["maxBodyBytes", "maxJSONDepth", "maxJSONElements", "maxTransactionBodyBytes",
                             "maxSpendBodyBytes", "maxConnections", "maxConnectionsPerIP", "idleTimeoutSeconds",
                             "headTimeoutSeconds", "shutdownGraceSeconds", "maxConcurrentReconciles"]

    static func loadKeys(_ node: JSONCursor?, reader: inout ConfigurationReader) -> [APIKeyEntry] {
        guard let node else {
            reader.problem("keys", "is required: at least one key (make one with 'tally serve key --role public')")
            return []
        }
        guard let elements = reader.array(node) else { return [] }
        if elements.isEmpty { reader.problem("keys", "must hold at least one key") }
        var keys: [APIKeyEntry] = []
        var names: Set<String> = []
        // Hashes compared as bytes; the value is the path of the entry that listed the hash first.
        var hashes: [[UInt8]: String] = [:]
        for element in elements {
            guard let members = reader.object(element, allowed: keyKeys) else { continue }
            let name = field(members, "name", of: element, reader: &reader).flatMap { reader.string($0) }
            let roleText = field(members, "role", of: element, reader: &reader).flatMap { reader.string($0) }
            let role = roleText.flatMap(KeyRole.init(rawValue:))
            if let roleText, role == nil {
                reader.problem(element.path(of: "role"), "must be \"public\", \"secret\" or \"dashboard\", not \"\(roleText)\"")
            }
            let hexText = field(members, "sha256", of: element, reader: &reader).flatMap { reader.string($0) }
            let digest = hexText.flatMap(Self.hexBytes)
            if hexText != nil, digest?.count != 32 {
                reader.problem(element.path(of: "sha256"), "must be 64 hex digits: the SHA-256 that 'tally serve key' prints")
            }
            if let digest, digest.count == 32 {
                if let first = hashes[digest] {
                    reader.problem(element.path(of: "sha256"), "is the same key hash as \(first): list each key "
                        + "once, with one role (make another key with 'tally serve key')")
                } else {
                    hashes[digest] = element.path(of: "sha256")
                }
            }
            if let name, !names.insert(name).inserted {
                reader.problem(element.path(of: "name"), "\"\(name)\" is used by another key")
            }
            if let name, let role, let digest, digest.count == 32 {
                keys.append(APIKeyEntry(name: name, role: role, sha256: digest))
            }
        }
        return keys
    }

    /// The `rateLimit` keys holding a positive rate per second.
    static var rateKeys: [(String, WritableKeyPath<ServerLimits, Double>)] { [
        ("requestsPerSecond", \.requestsPerSecond), ("publicKeyRequestsPerSecond", \.publicKeyRequestsPerSecond),
        ("publicKeyPerAddressRequestsPerSecond", \.publicKeyPerAddressRequestsPerSecond),
        ("unknownKeyRequestsPerSecond", \.unknownKeyRequestsPerSecond),
        ("unverifiedNotificationsPerSecond", \.unverifiedNotificationsPerSecond),
    ] }
    /// The `rateLimit` keys holding a burst (1…1,000,000).
    static var burstKeys: [(String, WritableKeyPath<ServerLimits, Int>)] { [
        ("burst", \.burst), ("publicKeyBurst", \.publicKeyBurst), ("publicKeyPerAddressBurst", \.publicKeyPerAddressBurst),
        ("unknownKeyBurst", \.unknownKeyBurst), ("unverifiedNotificationBurst", \.unverifiedNotificationBurst),
    ] }

    static func loadLimits(rate: JSONCursor?, limits: JSONCursor?, threads: Int,
                           reader: inout ConfigurationReader) -> ServerLimits {
        var result = ServerLimits()
        if let rate, let members = reader.object(rate, allowed: rateLimitKeys) {
            for (key, field) in rateKeys {
                if let node = members[key], let value = reader.positiveNumber(node) { result[keyPath: field] = value }
            }
            for (key, field) in burstKeys {
                if let node = members[key], let value = reader.integer(node, in: 1...1_000_000) {
                    result[keyPath: field] = Int(value)
                }
            }
        }
        guard let limits, let members = reader.object(limits, allowed: limitsKeys) else { return result }
        func read(_ key: String, in range: ClosedRange<Int64>, into field: WritableKeyPath<ServerLimits, Int>,
                  reader: inout ConfigurationReader) {
            if let node = members[key], let value = reader.integer(node, in: range) { result[keyPath: field] = Int(value) }
        }
        read("maxBodyBytes", in: 1...(1 << 30), into: \.maxBodyBytes, reader: &reader)
        read("maxJSONDepth", in: 1...512, into: \.maxJSONDepth, reader: &reader)
        read("maxJSONElements", in: 1...10_000_000, into: \.maxJSONElements, reader: &reader)
        read("maxTransactionBodyBytes", in: 1...(1 << 30), into: \.maxTransactionBodyBytes, reader: &reader)
        read("maxSpendBodyBytes", in: 1...(1 << 30), into: \.maxSpendBodyBytes, reader: &reader)
        read("maxConnections", in: 1...1_000_000, into: \.maxConnections, reader: &reader)
        read("maxConnectionsPerIP", in: 0...1_000_000, into: \.maxConnectionsPerIP, reader: &reader)
        read("idleTimeoutSeconds", in: 1...86_400, into: \.idleTimeoutSeconds, reader: &reader)
        read("headTimeoutSeconds", in: 1...86_400, into: \.headTimeoutSeconds, reader: &reader)
        read("shutdownGraceSeconds", in: 0...3_600, into: \.shutdownGraceSeconds, reader: &reader)
        read("maxConcurrentReconciles", in: 1...256, into: \.maxConcurrentReconciles, reader: &reader)
        // A route limit the operator set above the ceiling would be cut down silently: say so instead.
        for (key, value) in [("maxTransactionBodyBytes", result.maxTransactionBodyBytes),
                             ("maxSpendBodyBytes", result.maxSpendBodyBytes)]
        where members[key] != nil && value > result.maxBodyBytes {
            reader.problem("limits.\(key)", "must not exceed limits.maxBodyBytes (\(result.maxBodyBytes)), the largest body on any route")
        }
        if members["maxConnections"] != nil, result.maxConnections < threads {
            reader.problem("limits.maxConnections", "must be at least threads (\(threads)): each thread needs a connection")
        }
        if members["maxConnectionsPerIP"] != nil, result.maxConnectionsPerIP > result.maxConnections {
            reader.problem("limits.maxConnectionsPerIP",
                           "must not exceed limits.maxConnections (\(result.maxConnections)); 0 means no per-address limit")
        }
        return result
    }

    private static func field(_ members: [String: JSONCursor], _ key: String, of object: JSONCursor,
                              reader: inout ConfigurationReader) -> JSONCursor? {
        guard let node = members[key] else {
            reader.problem(object.path(of: key), "is required")
            return nil
        }
        return node
    }

    /// Bytes of a hex string (either case); nil when it is not hex of even length.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text)
        guard digits.count % 2 == 0, digits.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            // `isHexDigit` also admits fullwidth digits, which `radix: 16` refuses.
            guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
