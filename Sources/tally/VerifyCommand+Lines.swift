import Foundation
import TallyVerify

extension VerifyCommand {
    /// `--lines`: one input per line (blank lines skipped), one compact JSON answer per line, in order.
    /// Works on bytes: big reads, `memchr` for line ends, one output buffer; exit 0 once all are answered.
    static func runLines(_ input: VerifyInput, options: Options) -> Int32 {
        let encoder = Output.encoder(compact: true)
        var output = VerifyOutput()
        var buffer: [UInt8] = []
        var atEnd = false
        while !atEnd {
            do {
                atEnd = try !input.read(appendingTo: &buffer)
            } catch {
                output.flush()
                Output.error("tally verify: \(error)")
                return ExitCode.usage
            }
            // Every complete line in the buffer (at the end, the last line too, with or without a line feed).
            var consumed = 0
            let failure = buffer.withUnsafeBufferPointer { bytes -> UsageError? in
                guard let base = bytes.baseAddress else { return nil }
                while consumed < bytes.count {
                    let end: Int
                    if let hit = memchr(base + consumed, Int32(UInt8(ascii: "\n")), bytes.count - consumed) {
                        end = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
                    } else if atEnd {
                        end = bytes.count
                    } else {
                        break
                    }
                    let line = VerifyInput.trimmed(bytes, consumed..<end)
                    consumed = min(end + 1, bytes.count)
                    guard !line.isEmpty else { continue }
                    let answer: Answer
                    if let text = String(validating: UnsafeBufferPointer(rebasing: bytes[line]), as: UTF8.self) {
                        do throws(UsageError) {
                            answer = try Self.answer(for: text, options: options)
                        } catch {
                            return error
                        }
                    } else {
                        answer = .invalid(VerificationFailure(.verificationFailure, "the line is not UTF-8 text"))
                    }
                    if let direct = directJSON(answer) {
                        output.appendLine(direct)
                    } else {
                        output.appendLine(render(answer, encoder: encoder))
                    }
                }
                return nil
            }
            if let failure {
                output.flush()
                Output.error("tally verify: \(failure). Run 'tally verify --help'.")
                return ExitCode.usage
            }
            buffer.removeSubrange(0..<consumed)
        }
        guard output.flush() else {
            Output.error("tally verify: could not write to standard output: \(String(cString: strerror(errno)))")
            return ExitCode.usage
        }
        return ExitCode.ok
    }
}
