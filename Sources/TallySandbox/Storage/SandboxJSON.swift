import Foundation

/// The JSON form of the rows of `sandbox.sqlite` (and of the legacy `sandbox.json`): sorted keys, Foundation's
/// default date form, so the text is stable and readable with the `sqlite3` tool.
enum SandboxJSON {
    static func encode<T: Encodable>(_ value: T) throws(SandboxError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw SandboxError(.io, "cannot encode the sandbox state: \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String, what: String,
                                     path: String) throws(SandboxError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw SandboxError(.corruptState, "\(path): \(what) is not valid (\(error)): restore the directory from a backup or run 'tally sandbox init' in a new directory")
        }
    }
}
