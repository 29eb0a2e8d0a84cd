import Foundation


/// Explains why `JSONDecoder` refused a document. On Linux its error is only "The given data was not valid
/// JSON." with no position, so the text is read again with `JSONSerialization`, whose error says what and
/// where ("Invalid value around character 27."); the byte offset is turned into a line and column here.
public enum JSONSyntaxDiagnosis {
    /// The error message for a document of `file` that `JSONDecoder` refused with `error`: what is wrong and,
    /// when Foundation reports it, at which line and column.
    public static func message(for error: any Error, in data: Data, file: String) -> String {
        guard case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty else {
            return "\(file) could not be read: \(error)"
        }
        if let underlying = context.underlyingError {
            return "\(file) is not valid JSON: \(located(debugDescription(of: underlying), in: data))"
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            return "\(file) is not valid JSON: \(located(debugDescription(of: error), in: data))"
        }
        if let path = numberBeyondDecimal(in: object, path: "") {
            return "\(file) could not be read: \(path.isEmpty ? "the value" : path) is a number beyond what Decimal "
                + "holds (more than 1e127 or less than 1e-127 in size)"
        }
        return "\(file) could not be read: \(context.debugDescription) (JSONDecoder refused what JSONSerialization reads)"
    }

    /// Foundation's own description of a parse error, without the generic "couldn't be read" wording.
    private static func debugDescription(of error: any Error) -> String {
        (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? String(describing: error)
    }

    /// Adds the line and column of an "around character N" byte offset to Foundation's description.
    static func located(_ description: String, in data: Data) -> String {
        guard let offset = characterOffset(in: description), offset <= data.count else { return description }
        let before = data.prefix(offset)
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? before.startIndex
        let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        return "\(description) (line \(line), column \(column))"
    }

    /// N of the first "character N" in `description` (no Regex: it needs iOS 16, TallyCore runs on iOS 15).
    static func characterOffset(in description: String) -> Int? {
        guard let marker = description.range(of: "character ") else { return nil }
        let digits = description[marker.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return Int(digits)
    }

    /// The JSON path of the first number (in sorted key order) too large or too small for `Decimal`.
    private static func numberBeyondDecimal(in value: Any, path: String) -> String? {
        switch value {
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let child = path.isEmpty ? key : "\(path).\(key)"
                if let found = object[key].flatMap({ numberBeyondDecimal(in: $0, path: child) }) { return found }
            }
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = numberBeyondDecimal(in: element, path: "\(path)[\(index)]") { return found }
            }
        case let number as NSNumber:
            let size = abs(number.doubleValue)
            if size >= 1e127 || (size > 0 && size < 1e-127) { return path }
        default:
            break
        }
        return nil
    }
}
