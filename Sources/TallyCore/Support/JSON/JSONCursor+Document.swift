import Foundation


extension JSONCursor {
    /// Parses a whole configuration file with Foundation's `JSONDecoder` (a leading UTF-8 byte-order mark is
    /// skipped) and requires a top-level object; `expected` says what the object should hold, for the message
    /// when it is not one. Invalid JSON is an error naming the file and, when Foundation says, where.
    public static func document(from data: Data, fileName: String, expected: String) throws(TallyError) -> JSONCursor {
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
        let tree: JSONTree
        do {
            tree = try JSONDecoder().decode(JSONTree.self, from: text)
        } catch {
            throw TallyError(.invalidConfiguration, JSONSyntaxDiagnosis.message(for: error, in: text, file: fileName))
        }
        guard case .object = tree else {
            throw TallyError(.invalidConfiguration, "\(fileName): the top level is \(tree.typeName); expected \(expected)")
        }
        return JSONCursor(tree: tree, path: "", file: fileName)
    }
}
