import Foundation


extension JSONCursor {
    /// Parses a whole configuration file (a leading UTF-8 byte-order mark is skipped) and requires a
    /// top-level object; `expected` says what the object should hold, for the message when it is not one.
    static func document(from data: Data, fileName: String, expected: String) throws(TallyError) -> JSONCursor {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let tree: JSONTree
        do {
            tree = try JSONTreeParser.parse(bytes)
        } catch {
            throw TallyError(.invalidConfiguration,
                             "\(fileName) is not valid JSON: \(error.message) at line \(error.line), column \(error.column)")
        }
        guard case .object = tree else {
            throw TallyError(.invalidConfiguration, "\(fileName): the top level is \(tree.typeName); expected \(expected)")
        }
        return JSONCursor(tree: tree, path: "", file: fileName)
    }
}
