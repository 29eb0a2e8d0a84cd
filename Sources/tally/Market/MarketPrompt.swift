import Foundation
import TallyLocking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The interactive market's prompt, shared with the event printer: an event printed while the market waits for
/// a command goes on its own line (on a terminal the prompt line is cleared first) and the prompt is drawn
/// again after it, so the next command is typed at a visible `> `.
final class MarketPrompt: Sendable {
    private let waiting = Locked(false)
    private let isTerminal = isatty(STDOUT_FILENO) == 1

    /// Draws the prompt and marks the market as waiting for a command.
    func show() {
        waiting.withLock { waiting in
            Console.write("> ")
            waiting = true
        }
    }

    /// A command was read: events print as plain lines until the next prompt.
    func leave() {
        waiting.withLock { $0 = false }
    }

    /// Prints `lines` in one write (a command's own output cannot land between an event's lines), redrawing the
    /// prompt after them when the market waits at it.
    func print(_ lines: [String]) {
        waiting.withLock { waiting in
            if waiting { Console.write(isTerminal ? "\r\u{1B}[2K" : "\n") }
            Console.write(lines.map { $0 + "\n" }.joined())
            if waiting { Console.write("> ") }
        }
    }
}
