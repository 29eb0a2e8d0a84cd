import Foundation

/// Reads typed values out of a configuration's JSON and collects every problem with its JSON path,
/// so one error can list them all.
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

    /// The members of an object, reporting keys outside `allowed`; nil (and a problem) for another kind.
    mutating func object(_ node: JSONNode, _ path: String, allowed: [String]) -> [String: JSONNode]? {
        guard let members = node.objectValue else {
            problem(path, "must be an object, not \(node.kindName)")
            return nil
        }
        for key in members.keys.sorted() where !allowed.contains(key) {
            problem(join(path, key), "is not a known key; the keys here are \(allowed.joined(separator: ", "))")
        }
        return members
    }

    mutating func string(_ node: JSONNode, _ path: String) -> String? {
        guard case .string(let text) = node else {
            problem(path, "must be a string, not \(node.kindName)")
            return nil
        }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            problem(path, "is empty")
            return nil
        }
        return text
    }

    mutating func bool(_ node: JSONNode, _ path: String) -> Bool? {
        guard case .bool(let value) = node else {
            problem(path, "must be true or false, not \(node.kindName)")
            return nil
        }
        return value
    }

    mutating func integer(_ node: JSONNode, _ path: String, in range: ClosedRange<Int64>) -> Int64? {
        guard case .number(let text) = node, let value = Int64(text), range.contains(value) else {
            problem(path, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return value
    }

    mutating func positiveNumber(_ node: JSONNode, _ path: String) -> Double? {
        guard case .number(let text) = node, let value = Double(text), value > 0, value.isFinite else {
            problem(path, "must be a number above 0")
            return nil
        }
        return value
    }

    mutating func array(_ node: JSONNode, _ path: String) -> [JSONNode]? {
        guard case .array(let elements) = node else {
            problem(path, "must be an array, not \(node.kindName)")
            return nil
        }
        return elements
    }

    /// A file named by a string, relative to ``directory``: its URL and bytes.
    mutating func file(_ node: JSONNode, _ path: String) -> (url: URL, data: Data)? {
        guard let name = string(node, path) else { return nil }
        let url = name.hasPrefix("/") ? URL(fileURLWithPath: name)
            : directory.appendingPathComponent(name).standardizedFileURL
        guard let data = FileManager.default.contents(atPath: url.path) else {
            problem(path, "cannot read \(url.path): no such file or not readable")
            return nil
        }
        return (url, data)
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
