import Foundation


extension StoreKitReader {
    /// Recognises what the bytes are and parses them as a JSON object; other content gets a clear error.
    func document(from data: Data) throws(TallyError) -> JSONCursor {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let kind = Self.nonJSONKind(bytes) {
            throw TallyError(.invalidConfiguration, "\(file) is not a JSON StoreKit configuration file (it looks like \(kind))")
        }
        guard String(bytes: bytes, encoding: .utf8) != nil else {
            throw TallyError(.invalidConfiguration, "\(file) is not a JSON StoreKit configuration file (it is not UTF-8 text)")
        }
        return try JSONCursor.document(from: Data(bytes), fileName: file, expected: "an object with version, "
                                       + "products, subscriptionGroups and settings (a StoreKit configuration file)")
    }

    /// Names the kind of a file that is certainly not JSON, from its first bytes.
    static func nonJSONKind(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if bytes.isEmpty || text.isEmpty { return "an empty file" }
        if text.hasPrefix("<?xml") || text.hasPrefix("<plist") || text.hasPrefix("<!DOCTYPE plist") {
            return "an XML property list"
        }
        if bytes.starts(with: Array("bplist".utf8)) { return "a binary property list" }
        if bytes.starts(with: [0x00, 0x05, 0x16, 0x07]) { return "an AppleDouble resource fork, a macOS '._' metadata file" }
        if bytes.starts(with: Array("book".utf8)) { return "a macOS bookmark or alias" }
        return nil
    }
}
