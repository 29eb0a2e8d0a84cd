import Foundation
import TallyCore

/// Reads the JSON the server receives (request bodies, its configuration) into TallyCore's ``JSONTree``
/// with Foundation's `JSONDecoder` (numbers are exact `Decimal`s), after the byte checks Foundation does not
/// make: UTF-8, the nesting and element limits (before any decoding) and ``JSONStrictScan``.
enum StrictJSONReader {
    /// The JSON value of `bytes`; `name` ("the body", the file name) is used in messages. More than
    /// `maxElements` values (see ``JSONElementScan``) is ``StrictJSONError/tooManyElements(limit:)``.
    static func read(_ bytes: [UInt8], maxDepth: Int, maxElements: Int = .max,
                     name: String) throws(StrictJSONError) -> JSONTree {
        guard UTF8Check.isValid(bytes) else { throw .malformed("\(name) is not UTF-8") }
        if JSONDepthScan.exceeds(bytes, limit: maxDepth) { throw .tooDeep(limit: maxDepth) }
        if JSONElementScan.exceeds(bytes, limit: maxElements) { throw .tooManyElements(limit: maxElements) }
        switch JSONStrictScan.firstFinding(in: bytes) {
        case .trailingComma(let offset)?:
            throw .malformed("\(name) is not JSON: a comma before a closing bracket at byte \(offset)")
        case .repeatedKey(let key, let offset)?:
            throw .malformed("\(name) is not JSON: the key \"\(key.prefix(64))\" appears twice (byte \(offset))")
        case .inexactNumber(let text, let member)?:
            throw .inexactNumber(text, member: member)
        case nil:
            break
        }
        let data = Data(bytes)
        do {
            return try JSONDecoder().decode(JSONTree.self, from: data)
        } catch {
            throw .malformed(JSONSyntaxDiagnosis.message(for: error, in: data, file: name))
        }
    }
}
