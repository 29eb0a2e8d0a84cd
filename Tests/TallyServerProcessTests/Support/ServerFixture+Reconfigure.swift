import Foundation

extension ServerFixture {
    /// The configuration document as written.
    func configurationDocument() throws -> [String: Any] {
        guard let document = try JSONSerialization.jsonObject(with: Data(contentsOf: configFile)) as? [String: Any] else {
            throw HarnessError("\(configFile.path) is not a JSON object")
        }
        return document
    }

    /// Stops the server, applies `change` to `tally-server.json` and starts a new server with it.
    func reconfigure(_ change: (inout [String: Any]) -> Void) throws {
        try server.killNow()
        var document = try configurationDocument()
        change(&document)
        try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]).write(to: configFile)
        try restart()
    }
}

/// Runs a command to its end, with `environment` added to this process's; its exit status and what it printed
/// (stdout and stderr together).
@discardableResult
func runCommand(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
    -> (status: Int32, output: String)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}
