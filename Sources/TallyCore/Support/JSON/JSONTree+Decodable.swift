import Foundation


extension JSONTree: Decodable {
    /// Reads any JSON value. Scalars are told apart by asking for `String`, then `Bool`, then `Decimal`,
    /// moving on only on a type mismatch, so `"1"`, `true`, `1` and `1.0` never turn into one another and
    /// any other error (a number too large for `Decimal`) reaches the caller.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [String: JSONTree] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONTree.self, forKey: key) }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONTree] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONTree.self)) }
            self = .array(elements)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let string = try Self.unlessMismatched({ try value.decode(String.self) }) {
                self = .string(string)
            } else if let bool = try Self.unlessMismatched({ try value.decode(Bool.self) }) {
                self = .bool(bool)
            } else {
                self = .number(try value.decode(Decimal.self))
            }
        }
    }

    /// The decoded value, or nil when the JSON value has another type.
    private static func unlessMismatched<Value>(_ decode: () throws -> Value) throws -> Value? {
        do {
            return try decode()
        } catch DecodingError.typeMismatch {
            return nil
        }
    }
}
