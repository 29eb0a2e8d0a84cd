import Foundation

/// The market's standard output, unbuffered: each line is one `write(2)`, so a prompt or an event from the
/// background (an approval arriving) shows at once even through a pipe, in the order written.
enum Console {
    /// Writes `text` and a newline.
    static func line(_ text: String) {
        write(text + "\n")
    }

    /// Writes `text` as is (a prompt).
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
