import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SandboxDirectory {
    /// Moves a `sandbox.json` (the whole state as one JSON file, as earlier versions kept it) into a new
    /// `sandbox.sqlite`, then renames the file to `sandbox.json.migrated`. Under the lock, so two processes
    /// opening the directory at once migrate it once. A damaged file is reported and left as it is.
    func migrateLegacyState() throws(SandboxError) {
        try Self.typed {
            try withLock { () throws(SandboxError) in
                guard !FileManager.default.fileExists(atPath: databaseFile.path) else { return }
                let sandbox = try readLegacyState()
                try install(sandbox)
                guard rename(legacyStateFile.path, migratedStateFile.path) == 0 else {
                    throw SandboxError(.io, "migrated \(legacyStateFile.path) to \(databaseFile.path) but cannot rename it to \(migratedStateFile.path): \(String(cString: strerror(errno)))")
                }
            }
        }
    }

    /// Reads `sandbox.json`.
    private func readLegacyState() throws(SandboxError) -> Sandbox {
        let path = legacyStateFile.path
        let data: Data
        do {
            data = try Data(contentsOf: legacyStateFile)
        } catch {
            throw SandboxError(.io, "cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(Sandbox.self, from: data)
        } catch {
            throw SandboxError(.corruptState, "\(path) is not a valid sandbox state (\(Self.describe(error))): restore it from a backup or run 'tally sandbox init' in a new directory")
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription + Self.path(context.codingPath)
        case DecodingError.keyNotFound(let key, let context):
            return "missing '\(key.stringValue)'" + Self.path(context.codingPath)
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return context.debugDescription + Self.path(context.codingPath)
        default:
            return "\(error)"
        }
    }

    private static func path(_ codingPath: [CodingKey]) -> String {
        codingPath.isEmpty ? "" : " at " + codingPath.map(\.stringValue).joined(separator: ".")
    }
}
