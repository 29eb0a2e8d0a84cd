import Foundation
import TallyCore

/// A sandbox kept in a directory as `sandbox.json`, written atomically (temporary file, fsync, rename,
/// fsync of the directory). A damaged file is reported, never replaced.
public struct SandboxDirectory: Sendable {
    /// The directory.
    public var url: URL

    /// The state file, `<directory>/sandbox.json`.
    public var stateFile: URL { url.appendingPathComponent("sandbox.json") }

    /// A sandbox directory at `url` (created by ``create(catalog:configuration:start:)`` when missing).
    public init(url: URL) {
        self.url = url
    }

    /// Creates a new sandbox and saves it; refuses when the directory already holds one.
    public func create(catalog: Catalog, configuration: AppConfiguration,
                       start: Date) throws(SandboxError) -> Sandbox {
        if FileManager.default.fileExists(atPath: stateFile.path) {
            throw SandboxError(.stateExists, "\(stateFile.path) already exists: use that sandbox, or run 'tally sandbox init' in another directory")
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw SandboxError(.io, "cannot create the directory \(url.path): \(error.localizedDescription)")
        }
        let sandbox = Sandbox(catalog: catalog, configuration: configuration, start: start)
        try save(sandbox)
        return sandbox
    }

    /// Reads the saved sandbox.
    public func load() throws(SandboxError) -> Sandbox {
        let path = stateFile.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw SandboxError(.noState, "no sandbox in \(url.path) (\(path) is missing): run 'tally sandbox init' first")
        }
        let data: Data
        do {
            data = try Data(contentsOf: stateFile)
        } catch {
            throw SandboxError(.io, "cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(Sandbox.self, from: data)
        } catch {
            throw SandboxError(.corruptState, "\(path) is not a valid sandbox state (\(Self.describe(error))): restore it from a backup or run 'tally sandbox init' in a new directory")
        }
    }

    /// Saves the sandbox atomically: a reader sees the old state or the new one, never a mix.
    public func save(_ sandbox: Sandbox) throws(SandboxError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(sandbox)
        } catch {
            throw SandboxError(.io, "cannot encode the sandbox state: \(error)")
        }
        do {
            try AtomicFile.write(data, to: stateFile.path, mode: 0o644)
        } catch {
            throw SandboxError(.io, "cannot save the sandbox state: \(error.message)")
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
