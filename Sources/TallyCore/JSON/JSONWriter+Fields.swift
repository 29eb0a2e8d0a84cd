import Foundation

extension JSONWriter {
    /// The bytes of one object whose members `fields` writes.
    public static func object(_ fields: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter()
        writer.object(fields)
        return writer.bytes
    }

    /// Writes an object (`{…}`) whose members `fields` writes.
    public mutating func object(_ fields: (inout JSONWriter) -> Void) {
        beginObject()
        fields(&self)
        endObject()
    }

    /// Writes `"key":[…]`, one object per element, its members written by `fields`.
    public mutating func objects<Elements: Sequence>(_ key: String, _ elements: Elements,
                                                     _ fields: (inout JSONWriter, Elements.Element) -> Void) {
        self.key(key)
        beginArray()
        for element in elements { object { fields(&$0, element) } }
        endArray()
    }

    /// Writes `"key":` and a string, or null.
    public mutating func field(_ key: String, _ value: String?) {
        self.key(key)
        string(value)
    }

    /// Writes `"key":` and a date (ISO 8601 UTC with milliseconds), or null.
    public mutating func field(_ key: String, _ value: Date?) {
        self.key(key)
        date(value)
    }

    /// Writes `"key":` and an exact decimal number.
    public mutating func field(_ key: String, _ value: Decimal) {
        self.key(key)
        decimal(value)
    }

    /// Writes `"key":` and an amount kept in milliunits (`price` of a stored transaction) as an exact decimal, or null.
    public mutating func milliunits(_ key: String, _ value: Int64?) {
        self.key(key)
        if let value { decimal(Decimal(value) / 1000) } else { null() }
    }

    /// Writes `"key":` and an integer.
    public mutating func field(_ key: String, _ value: Int) {
        self.key(key)
        integer(value)
    }

    /// Writes `"key":` and `true` or `false`.
    public mutating func field(_ key: String, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    /// Writes `"key":` and an array of strings.
    public mutating func field(_ key: String, _ values: [String]) {
        self.key(key)
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    /// Writes `"key":` and an object of amounts by name, sorted by name.
    public mutating func field(_ key: String, _ amounts: [String: Decimal]) {
        self.key(key)
        object { writer in
            for name in amounts.keys.sorted() { writer.field(name, amounts[name] ?? 0) }
        }
    }

    /// Writes `"key":` and already-encoded JSON.
    public mutating func field(_ key: String, raw json: [UInt8]) {
        self.key(key)
        raw(json)
    }
}
