/// Why the sandbox could not create, load, store or use its signing certificates.
public struct SigningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, stable for programs to switch over.
    public enum Code: String, Sendable, Hashable, Codable {
        /// A certificate or key file is not in the data directory.
        case missingFile
        /// A certificate or key file exists but does not hold what it should.
        case corruptFile
        /// Reading, writing or renaming a file failed.
        case fileSystem
        /// An OpenSSL call failed.
        case openSSL
        /// The payload could not be encoded as JSON.
        case encoding
        /// A parameter is out of range (for example the certificate validity).
        case invalidArgument
    }

    /// The kind of failure.
    public var code: Code
    /// A sentence a person can act on, naming the file or OpenSSL call involved.
    public var message: String
    /// The file involved, when there is one.
    public var path: String?

    /// Creates an error with a code, a human message and optionally the file involved.
    public init(_ code: Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    /// The human message.
    public var description: String { message }
}
