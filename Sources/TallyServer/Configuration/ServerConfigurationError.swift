/// Everything wrong with a `tally-server.json`, each problem naming its JSON path.
public struct ServerConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One problem at one place in the file.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The JSON path (`verification.roots[0]`, `keys[1].sha256`); empty for the whole file.
        public var path: String
        /// What is wrong and what to do.
        public var message: String

        /// Creates a problem.
        public init(_ path: String, _ message: String) {
            self.path = path
            self.message = message
        }

        /// `path: message`.
        public var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    /// The configuration file's name.
    public var fileName: String
    /// Every problem found, in file order.
    public var problems: [Problem]

    /// Creates an error.
    public init(fileName: String, problems: [Problem]) {
        self.fileName = fileName
        self.problems = problems
    }

    /// The file name and one line per problem.
    public var description: String {
        "\(fileName) is not a usable server configuration:\n" + problems.map { "- \($0)" }.joined(separator: "\n")
    }
}
