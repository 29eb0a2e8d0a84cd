import Foundation


/// A value inside a JSON document (a configuration file) together with its file name and JSON path
/// (`products[3].type`), so that every error can say which file and which key is wrong.
public struct JSONCursor: Sendable {
    /// The value at ``path``.
    public let tree: JSONTree
    /// The JSON path of the value; empty for the document itself.
    public let path: String
    /// The file name used in messages.
    public let file: String

    /// A cursor at `path` of `file` (empty `path`: the document itself).
    public init(tree: JSONTree, path: String = "", file: String) {
        self.tree = tree
        self.path = path
        self.file = file
    }

    /// An error naming the file, the key and what is wrong with it.
    public func failure(_ message: String, code: TallyError.Code = .invalidConfiguration) -> TallyError {
        TallyError(code, path.isEmpty ? "\(file): \(message)" : "\(file): \(path) \(message)")
    }

    /// The path of a member of this object.
    public func path(of key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The member `key`, or nil when it is absent or `null`.
    public func optional(_ key: String) throws(TallyError) -> JSONCursor? {
        guard case .object = tree else { throw failure("is \(tree.typeName); expected an object") }
        guard let value = tree[key], value != .null else { return nil }
        return JSONCursor(tree: value, path: path(of: key), file: file)
    }

    /// The member `key`; throws naming the key when it is absent or `null`.
    public func required(_ key: String) throws(TallyError) -> JSONCursor {
        guard let value = try optional(key) else {
            throw TallyError(.invalidConfiguration, "\(file): \(path(of: key)) is missing")
        }
        return value
    }

    /// The elements of an array, each with its indexed path.
    public func elements() throws(TallyError) -> [JSONCursor] {
        guard case .array(let values) = tree else { throw failure("is \(tree.typeName); expected an array") }
        return values.enumerated().map { JSONCursor(tree: $1, path: "\(path)[\($0)]", file: file) }
    }

    /// The members of an object sorted by key (Foundation does not keep file order), each with its path.
    public func members() throws(TallyError) -> [(key: String, value: JSONCursor)] {
        guard case .object(let members) = tree else { throw failure("is \(tree.typeName); expected an object") }
        return members.sorted { $0.key < $1.key }.map { ($0.key, JSONCursor(tree: $0.value, path: path(of: $0.key), file: file)) }
    }

    /// The value as a string.
    public func string() throws(TallyError) -> String {
        guard case .string(let value) = tree else { throw failure("is \(tree.typeName); expected a string") }
        return value
    }

    /// The value as a boolean.
    public func bool() throws(TallyError) -> Bool {
        guard case .bool(let value) = tree else { throw failure("is \(tree.typeName); expected true or false") }
        return value
    }

    /// The value as an integer; a number with a fraction or out of `Int`'s range is an error (`4.0` is 4).
    public func int() throws(TallyError) -> Int {
        guard case .number(let value) = tree else { throw failure("is \(tree.typeName); expected an integer") }
        var whole = Decimal()
        var rounded = value
        NSDecimalRound(&whole, &rounded, 0, .plain)
        guard whole == value, value >= Decimal(Int.min), value <= Decimal(Int.max),
              let integer = Int(whole.description) else {
            throw failure("is \(value); expected an integer")
        }
        return integer
    }

    /// The value as an exact decimal, as `JSONDecoder` read it from the number's text (never through `Double`).
    public func decimal() throws(TallyError) -> Decimal {
        guard case .number(let value) = tree else { throw failure("is \(tree.typeName); expected a number") }
        return value
    }
}
