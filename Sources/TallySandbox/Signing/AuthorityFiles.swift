import Foundation

/// Reads and atomically writes the authority's files under one data directory.
struct AuthorityFiles {
    /// The sandbox data directory.
    var directory: URL

    /// The full path of `name` (relative to the data directory).
    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// True when `name` exists.
    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: path(name))
    }

    /// The bytes of `name`; a missing or unreadable file is an error naming it.
    func read(_ name: String) throws(SigningError) -> Data {
        guard let data = try readIfPresent(name) else {
            throw SigningError(.missingFile, "\(path(name)) is missing; the sandbox certificate authority is "
                + "incomplete — restore the file or delete \(path("ca")) to create a new authority", path: path(name))
        }
        return data
    }

    /// The bytes of `name`, or nil when it does not exist.
    func readIfPresent(_ name: String) throws(SigningError) -> Data? {
        guard exists(name) else { return nil }
        do {
            return try Data(contentsOf: directory.appendingPathComponent(name))
        } catch {
            throw SigningError(.fileSystem, "cannot read \(path(name)): \(error.localizedDescription)", path: path(name))
        }
    }

    /// The error for a file that parses but does not fit the rest of the authority.
    func mismatch(_ name: String, _ problem: String) -> SigningError {
        SigningError(.corruptFile, "\(path(name)) \(problem); delete \(path("ca")) to create a new authority",
                     path: path(name))
    }

    /// Replaces `name` with `text` atomically; secrets get mode 0600, others 0644.
    func write(_ text: String, to name: String, secret: Bool) throws(SigningError) {
        let target = directory.appendingPathComponent(name)
        let folder = target.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SigningError(.fileSystem, "cannot create \(folder.path): \(error.localizedDescription)",
                               path: folder.path)
        }
        try AtomicFile.write(Data(text.utf8), to: target.path, mode: secret ? 0o600 : 0o644)
    }
}
