import Foundation
import TallyCore

/// Reads typed values out of a configuration's JSON (TallyCore's ``JSONCursor``, which knows each value's
/// JSON path) and collects every problem with its path, so one error can list them all.
struct ConfigurationReader {
    /// The directory relative paths are resolved against.
    let directory: URL
    /// Problems found so far.
    private(set) var problems: [ServerConfigurationError.Problem] = []

    init(directory: URL) {
        self.directory = directory
    }

    mutating func problem(_ path: String, _ message: String) {
        problems.append(.init(path, message))
    }

    /// The members of an object by key, reporting keys outside `allowed`; nil (and a problem) for another kind.
    mutating func object(_ value: JSONCursor, allowed: [String]) -> [String: JSONCursor]? {
        guard let members = try? value.members() else {
            problem(value.path, "must be an object, not \(value.tree.typeName)")
            return nil
        }
        for (key, member) in members where !allowed.contains(key) {
            problem(member.path, "is not a known key; the keys here are \(allowed.joined(separator: ", "))")
        }
        return Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) })
    }

    mutating func string(_ value: JSONCursor) -> String? {
        guard let text = try? value.string() else {
            problem(value.path, "must be a string, not \(value.tree.typeName)")
            return nil
        }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            problem(value.path, "is empty")
            return nil
        }
        return text
    }

    mutating func bool(_ value: JSONCursor) -> Bool? {
        guard let flag = try? value.bool() else {
            problem(value.path, "must be true or false, not \(value.tree.typeName)")
            return nil
        }
        return flag
    }

    mutating func integer(_ value: JSONCursor, in range: ClosedRange<Int64>) -> Int64? {
        guard let integer = try? value.int(), range.contains(Int64(integer)) else {
            problem(value.path, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return Int64(integer)
    }

    mutating func positiveNumber(_ value: JSONCursor) -> Double? {
        guard let number = try? value.decimal(), number > 0 else {
            problem(value.path, "must be a number above 0")
            return nil
        }
        return NSDecimalNumber(decimal: number).doubleValue
    }

    mutating func array(_ value: JSONCursor) -> [JSONCursor]? {
        guard let elements = try? value.elements() else {
            problem(value.path, "must be an array, not \(value.tree.typeName)")
            return nil
        }
        return elements
    }

    /// A file named by a string, relative to ``directory``: its URL and bytes.
    mutating func file(_ value: JSONCursor) -> (url: URL, data: Data)? {
        guard let name = string(value) else { return nil }
        let url = name.hasPrefix("/") ? URL(fileURLWithPath: name)
            : directory.appendingPathComponent(name).standardizedFileURL
        guard let data = FileManager.default.contents(atPath: url.path) else {
            problem(value.path, "cannot read \(url.path): no such file or not readable")
            return nil
        }
        return (url, data)
    }
}
