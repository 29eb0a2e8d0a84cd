import Foundation


/// Apple's payloads write dates as integer milliseconds since 1970.
extension Date {
    /// Creates a date from Apple's milliseconds since 1970.
    public init(millisecondsSince1970 ms: Int64) {
        self.init(timeIntervalSince1970: Double(ms) / 1000)
    }

    /// The date as Apple's milliseconds since 1970, rounded to the nearest millisecond.
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }
}

extension KeyedDecodingContainer where Key == AnyCodingKey {
    func optional<T: Decodable>(_ key: String, as type: T.Type = T.self) throws -> T? {
        try decodeIfPresent(T.self, forKey: AnyCodingKey(key))
    }

    func required<T: Decodable>(_ key: String, as type: T.Type = T.self) throws -> T {
        try decode(T.self, forKey: AnyCodingKey(key))
    }

    // Concrete overloads: the generic `decodeIfPresent<T>` makes JSONDecoder build a nested decoder per
    // value, while these reach its direct String/number/Bool paths. Same values, same errors.

    func optional(_ key: String, as type: String.Type = String.self) throws -> String? {
        try decodeIfPresent(String.self, forKey: AnyCodingKey(key))
    }

    func optional(_ key: String, as type: Int.Type = Int.self) throws -> Int? {
        try decodeIfPresent(Int.self, forKey: AnyCodingKey(key))
    }

    func optional(_ key: String, as type: Int64.Type = Int64.self) throws -> Int64? {
        try decodeIfPresent(Int64.self, forKey: AnyCodingKey(key))
    }

    func optional(_ key: String, as type: Bool.Type = Bool.self) throws -> Bool? {
        try decodeIfPresent(Bool.self, forKey: AnyCodingKey(key))
    }

    func required(_ key: String, as type: String.Type = String.self) throws -> String {
        try decode(String.self, forKey: AnyCodingKey(key))
    }

    /// A string-backed value (Apple's open enumerations) read through its raw string, as its default
    /// `Decodable` conformance does.
    func optional<T: RawRepresentable & Decodable>(_ key: String, as type: T.Type = T.self) throws -> T?
    where T.RawValue == String {
        guard let raw = try optional(key, as: String.self) else { return nil }
        return try rawValue(raw, as: T.self, key: key)
    }

    /// An integer-backed value read through its raw integer, as its default `Decodable` conformance does.
    func optional<T: RawRepresentable & Decodable>(_ key: String, as type: T.Type = T.self) throws -> T?
    where T.RawValue == Int {
        guard let raw = try optional(key, as: Int.self) else { return nil }
        return try rawValue(raw, as: T.self, key: key)
    }

    /// A required string-backed value read through its raw string.
    func required<T: RawRepresentable & Decodable>(_ key: String, as type: T.Type = T.self) throws -> T
    where T.RawValue == String {
        try rawValue(try required(key, as: String.self), as: T.self, key: key)
    }

    private func rawValue<T: RawRepresentable>(_ raw: T.RawValue, as type: T.Type, key: String) throws -> T {
        guard let value = T(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(
                forKey: AnyCodingKey(key), in: self, debugDescription: "Cannot initialize \(T.self) from invalid value \(raw)")
        }
        return value
    }

    func millis(_ key: String) throws -> Date? {
        let codingKey = AnyCodingKey(key)
        if let whole = try? decodeIfPresent(Int64.self, forKey: codingKey) {
            return Date(millisecondsSince1970: whole)
        }
        // Xcode-signed data writes fractional milliseconds (1697679936049.7297); Apple's libraries truncate.
        guard let value = try decodeIfPresent(Double.self, forKey: codingKey) else { return nil }
        guard value.isFinite, abs(value) < 9.0e18 else {
            throw DecodingError.dataCorruptedError(
                forKey: codingKey, in: self, debugDescription: "\(key) \(value) is not a date in milliseconds")
        }
        return Date(millisecondsSince1970: Int64(value.rounded(.towardZero)))
    }

    /// Every key not in `known`, kept as raw JSON.
    func unknown(excluding known: Set<String>) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for key in allKeys where !known.contains(key.stringValue) {
            result[key.stringValue] = try decode(JSONValue.self, forKey: key)
        }
        return result
    }
}

extension KeyedEncodingContainer where Key == AnyCodingKey {
    mutating func put<T: Encodable>(_ value: T?, _ key: String) throws {
        try encodeIfPresent(value, forKey: AnyCodingKey(key))
    }

    mutating func putMillis(_ value: Date?, _ key: String) throws {
        try encodeIfPresent(value?.millisecondsSince1970, forKey: AnyCodingKey(key))
    }

    mutating func putUnknown(_ fields: [String: JSONValue]) throws {
        for (key, value) in fields { try encode(value, forKey: AnyCodingKey(key)) }
    }
}
