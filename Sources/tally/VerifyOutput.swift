import Foundation

/// Standard output as one byte buffer, written with `write(2)` in large blocks.
struct VerifyOutput {
    private(set) var bytes: [UInt8] = []
    /// Whether a write failed; later writes are skipped.
    private(set) var failed = false
    /// Buffered bytes that trigger a write.
    static let flushSize = 1 << 20

    init() { bytes.reserveCapacity(Self.flushSize + 64 * 1024) }

    /// Appends `bytes` and a line feed; writes the buffer once it is large.
    mutating func appendLine(_ line: [UInt8]) {
        bytes.append(contentsOf: line)
        bytes.append(UInt8(ascii: "\n"))
        if bytes.count >= Self.flushSize { flush() }
    }

    /// Appends `data` and a line feed; writes the buffer once it is large.
    mutating func appendLine(_ data: Data) {
        bytes.append(contentsOf: data)
        bytes.append(UInt8(ascii: "\n"))
        if bytes.count >= Self.flushSize { flush() }
    }

    /// Writes everything buffered to standard output; false when the write failed (closed pipe, full disk).
    @discardableResult
    mutating func flush() -> Bool {
        defer { bytes.removeAll(keepingCapacity: true) }
        guard !failed else { return false }
        failed = !bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
        return !failed
    }
}
