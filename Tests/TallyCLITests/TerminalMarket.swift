import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX pseudo-terminal calls. Glibc's Swift module leaves them out (they need `_XOPEN_SOURCE`), so they are
/// looked up in the C library already loaded; Darwin declares them.
enum PseudoTerminal {
    #if canImport(Glibc)
    private typealias FDCall = @convention(c) (Int32) -> Int32
    private typealias NameCall = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    private static func function<T>(_ name: String, as type: T.Type) -> T? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
    static func openMaster() -> Int32 { function("posix_openpt", as: FDCall.self)?(O_RDWR | O_NOCTTY) ?? -1 }
    static func grant(_ fd: Int32) -> Int32 { function("grantpt", as: FDCall.self)?(fd) ?? -1 }
    static func unlock(_ fd: Int32) -> Int32 { function("unlockpt", as: FDCall.self)?(fd) ?? -1 }
    static func slaveName(_ fd: Int32) -> String? {
        function("ptsname", as: NameCall.self)?(fd).flatMap { String(cString: $0) }
    }
    #else
    static func openMaster() -> Int32 { posix_openpt(O_RDWR | O_NOCTTY) }
    static func grant(_ fd: Int32) -> Int32 { grantpt(fd) }
    static func unlock(_ fd: Int32) -> Int32 { unlockpt(fd) }
    static func slaveName(_ fd: Int32) -> String? { ptsname(fd).map { String(cString: $0) } }
    #endif
}

/// A `tally market` running on a pseudo-terminal, as a person at a terminal runs it: standard input, output and
/// error are the terminal's slave side; the test types on the master side and reads what the terminal shows
/// (echoed input included, newlines as `\r\n`).
final class TerminalMarket: Sendable {
    private let process: Process
    private let master: FileHandle
    private let output = Screen()

    init(_ arguments: [String]) throws {
        let fd = PseudoTerminal.openMaster()
        guard fd >= 0, PseudoTerminal.grant(fd) == 0, PseudoTerminal.unlock(fd) == 0,
              let name = PseudoTerminal.slaveName(fd) else {
            throw CLITestError("cannot open a pseudo-terminal: errno \(errno)")
        }
        let slavePath = name
        guard let slave = FileHandle(forUpdatingAtPath: slavePath) else {
            throw CLITestError("cannot open the pseudo-terminal's slave \(slavePath)")
        }
        master = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        let process = Process()
        process.executableURL = TallyProcess.productsDirectory.appendingPathComponent("tally")
        process.arguments = ["market"] + arguments
        process.standardInput = slave
        process.standardOutput = slave
        process.standardError = slave
        // A plain read loop: once the market exits, the master's read fails with EIO, which ends it.
        Thread.detachNewThread { [output] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                output.append(String(decoding: buffer[0..<count], as: UTF8.self))
            }
            close(fd)
        }
        try process.run()
        try slave.close()
        self.process = process
    }

    /// A market left running by a failed test is stopped, never left behind.
    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Everything the terminal showed so far.
    var text: String { output.text }

    /// Types a line (and Return).
    func type(_ line: String) {
        master.write(Data((line + "\n").utf8))
    }

    /// Waits until the screen shows `expected` after position `from` (a count of characters shown before);
    /// gives up after a minute so a broken market fails the test instead of hanging it.
    func waitFor(_ expected: String, after from: Int = 0) -> Bool {
        let giveUp = Date().addingTimeInterval(60)
        while Date() < giveUp {
            if String(text.dropFirst(from)).contains(expected) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Types `quit` and waits for the market to end; returns its exit status.
    func quit() -> Int32 {
        type("quit")
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The terminal's output, shared with the reading handler.
    ///
    /// `@unchecked Sendable`: `value` is read and written only while holding `lock`.
    private final class Screen: @unchecked Sendable {
        private let lock = NSLock()
        private var value = ""
        func append(_ text: String) { lock.withLock { value += text } }
        var text: String { lock.withLock { value } }
    }
}
