import Foundation

/// The outside programs the server benchmark runs, found on `PATH` (and the sbin folders, where Debian puts nginx).
enum BenchTools {
    /// The executable called `name`, or nil when it is not installed.
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin", "/sbin"]
        for folder in folders {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// "; load average 1.23 on 2 cores" from /proc/loadavg (Linux), or "" where there is none: shared machines
    /// make latency noisy, and this says how busy this one was.
    static var loadAverageNote: String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
            let first = text.split(separator: " ").first
        else { return "" }
        return "; load average \(first) on \(ProcessInfo.processInfo.activeProcessorCount) cores"
    }

    /// The `tally` executable built beside this `tally-bench`.
    static func tally() -> URL? {
        guard let bench = Bundle.main.executableURL else { return nil }
        let candidate = bench.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("tally")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// The `tally` executable beside this `tally-bench` and `wrk`'s path; nil (with the skip line printed) when either
    /// is missing, so a server suite that needs both is skipped.
    static func tallyAndWrk() -> (tally: URL, wrk: URL)? {
        guard let tally = tally() else {
            Report.line("skipped: no tally executable beside tally-bench (swift build -c release --product tally)")
            return nil
        }
        guard let wrk = find("wrk") else {
            Report.line("skipped: wrk is not installed (apt-get install wrk)")
            return nil
        }
        return (tally, wrk)
    }

    /// The package root (the folder holding `Package.swift`), from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A free TCP port on 127.0.0.1, as the kernel picks it for a socket bound to port 0 (then closed).
    static func freePort() throws -> UInt16 {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw BenchError("socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw BenchError("could not pick a free port: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Creates (or empties) `file` and opens it for writing, to take a child process's output.
    static func emptyFile(_ file: URL) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw BenchError("could not create \(file.path)")
        }
        return try FileHandle(forWritingTo: file)
    }

    /// Runs `executable` to completion and returns its standard output; throws with its standard error when
    /// it exits with another status than 0.
    static func output(of executable: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited "
                + "\(process.terminationStatus): \(String(decoding: err, as: UTF8.self))")
        }
        return String(decoding: out, as: UTF8.self)
    }
}
