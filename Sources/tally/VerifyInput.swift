import Foundation

/// Standard input or a file, read as bytes in large chunks (never through `String`).
struct VerifyInput {
    /// The open file descriptor.
    let descriptor: Int32
    /// How the input is named in messages ("standard input", "'jws.txt'").
    let name: String
    private let closes: Bool

    /// Bytes asked of `read(2)` at a time.
    static let chunkSize = 1 << 20

    /// Opens `file`, or standard input when it is nil or `-`.
    init(_ file: String?) throws(UsageError) {
        guard let file, file != "-" else {
            descriptor = 0
            name = "standard input"
            closes = false
            return
        }
        let opened = open(file, O_RDONLY)
        guard opened >= 0 else { throw UsageError("cannot read '\(file)': \(String(cString: strerror(errno)))") }
        var status = stat()
        if fstat(opened, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            _ = Foundation.close(opened)
            throw UsageError("cannot read '\(file)': it is a directory")
        }
        descriptor = opened
        name = "'\(file)'"
        closes = true
    }

    /// Appends up to ``chunkSize`` bytes to `buffer`; false at the end of the input.
    func read(appendingTo buffer: inout [UInt8]) throws(UsageError) -> Bool {
        let start = buffer.count
        buffer.reserveCapacity(start + Self.chunkSize)
        var count = 0
        var failure: Int32 = 0
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        buffer.withUnsafeMutableBytes { bytes in
            while true {
                count = Foundation.read(descriptor, bytes.baseAddress! + start, Self.chunkSize)
                if count >= 0 || errno != EINTR { break }
            }
            if count < 0 { failure = errno }
        }
        buffer.removeLast(Self.chunkSize - max(count, 0))
        guard count >= 0 else { throw UsageError("cannot read \(name): \(String(cString: strerror(failure)))") }
        return count > 0
    }

    /// The whole input.
    func readAll() throws(UsageError) -> [UInt8] {
        var buffer: [UInt8] = []
        while try read(appendingTo: &buffer) {}
        return buffer
    }

    /// Closes a file (not standard input).
    func close() {
        if closes { _ = Foundation.close(descriptor) }
    }
}

extension VerifyInput {
    /// Whether `byte` is ASCII white space (space, tab, line feed, vertical tab, form feed, carriage return).
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// `bytes[range]` without leading and trailing ASCII white space.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }
}
