import Foundation
import TallyCore
import TallyVerify

/// `tally verify`: verifies App Store signed data (JWS) like Apple's library and prints the decoded payload.
enum VerifyCommand {
    static let usage = """
    tally verify — verify App Store signed data and print its payload

    USAGE
      tally verify [--root CERT]... [--bundle-id ID] [--app-apple-id N]
                   [--environment production|sandbox|xcode|local-testing]
                   [--at now|signed-date|ISO8601] [--online]
                   [--kind auto|transaction|renewal|notification|app-transaction|receipt]
                   [--lines] [FILE|-]

    Reads one JWS (signedTransactionInfo, signedRenewalInfo, a notification's signedPayload or
    signedAppTransactionInfo) or one base64 legacy app receipt from FILE, or standard input when FILE
    is '-' or absent.

    OPTIONS
      --root CERT        trust this root too (DER or PEM); Apple Root CA - G3 (JWS) and Apple Inc. Root
                         CA (receipts) are built in; for receipts with --environment xcode the first
                         --root is the StoreKit Testing certificate
      --bundle-id ID     the app's bundle id; when omitted the bundle id is NOT checked
      --app-apple-id N   the app's Apple ID; required with --environment production
      --environment ENV  expected environment (default production); xcode and local-testing skip
                         signature and chain checks, as Apple's library does
      --at WHEN          when certificates must be valid: signed-date (default offline: the payload's
                         signedDate), now (default with --online) or an ISO 8601 date
      --online           also check revocation by OCSP (network)
      --kind KIND        what the input is; auto (default) reads it from the payload
      --lines            one input per line, one JSON result per line; exit 0 once all are answered

    OUTPUT
      valid:   {"valid":true,"kind":"transaction","payload":{...}}  (Apple's field names, dates in ms), exit 0
      invalid: {"valid":false,"reason":"INVALID_CERTIFICATE","detail":"..."}, detail on stderr, exit 1
      unreadable input or bad options: exit 2
    """

    static func run(_ arguments: [String]) -> Int32 {
        let words = arguments.first == "verify" ? Array(arguments.dropFirst()) : arguments
        let options: Options
        do {
            let parsed = try Arguments(
                words, flags: ["online", "lines", "help", "h"],
                options: ["root", "bundle-id", "app-apple-id", "environment", "at", "kind"])
            if parsed.flag("help") || parsed.flag("h") {
                print(usage)
                return ExitCode.ok
            }
            options = try Options(parsed)
        } catch {
            Output.error("tally verify: \(error). Run 'tally verify --help'.")
            return ExitCode.usage
        }
        let input: String
        do {
            input = try readInput(options.file)
        } catch {
            Output.error("tally verify: \(error)")
            return ExitCode.usage
        }
        if options.lines {
            for line in input.split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
                let answer = answer(for: String(line), options: options)
                print(render(answer, compact: true))
            }
            return ExitCode.ok
        }
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            Output.error("tally verify: the input is empty; give a JWS in FILE or on standard input")
            return ExitCode.usage
        }
        let result = answer(for: text, options: options)
        print(render(result, compact: false))
        switch result {
        case .valid, .validReceipt: return ExitCode.ok
        case .invalid(let failure):
            Output.error("tally verify: \(failure.reason.rawValue): \(failure.detail)")
            return ExitCode.refused
        }
    }

    static func readInput(_ file: String?) throws -> String {
        if file == nil || file == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            guard let text = String(data: data, encoding: .utf8) else { throw UsageError("standard input is not UTF-8 text") }
            return text
        }
        guard let file, let data = FileManager.default.contents(atPath: file) else {
            throw UsageError("cannot read '\(file ?? "")'")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw UsageError("'\(file)' is not UTF-8 text") }
        return text
    }
}
