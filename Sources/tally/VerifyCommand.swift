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
      --app-apple-id N   the app's Apple ID; required to verify a JWS with --environment production
                         (receipts never need it)
      --environment ENV  expected environment (default production); xcode and local-testing skip
                         signature and chain checks, as Apple's library does
      --at WHEN          when certificates must be valid: signed-date (default offline: the payload's
                         signedDate), now (default with --online) or an ISO 8601 date
      --online           also check revocation by OCSP (network)
      --kind KIND        what the input is; auto (default) reads it from the payload (a receipt starts
                         with MII; a JWS needs notificationType, transactionId, receiptType or
                         autoRenewStatus to be recognised, so give --kind for sparse payloads)
      --lines            one input per line, one JSON result per line; exit 0 once all are answered

    OUTPUT
      valid:   {"valid":true,"kind":"transaction","payload":{...}}  (Apple's field names, dates in ms), exit 0;
               a field Tally's model needs but the signed payload lacks is null
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
        let input: VerifyInput
        do {
            input = try VerifyInput(options.file)
        } catch {
            Output.error("tally verify: \(error)")
            return ExitCode.usage
        }
        defer { input.close() }
        return options.lines ? runLines(input, options: options) : runOne(input, options: options)
    }

    /// One input: the answer as pretty JSON; exit 0 valid, 1 invalid, 2 unreadable.
    static func runOne(_ input: VerifyInput, options: Options) -> Int32 {
        let text: String
        do {
            let bytes = try input.readAll()
            let range = bytes.withUnsafeBufferPointer { VerifyInput.trimmed($0, 0..<$0.count) }
            guard let decoded = String(validating: bytes[range], as: UTF8.self) else {
                throw UsageError("\(input.name) is not UTF-8 text")
            }
            text = decoded
        } catch {
            Output.error("tally verify: \(error)")
            return ExitCode.usage
        }
        guard !text.isEmpty else {
            Output.error("tally verify: the input is empty; give a JWS in FILE or on standard input")
            return ExitCode.usage
        }
        let result: Answer
        do {
            result = try answer(for: text, options: options)
        } catch {
            Output.error("tally verify: \(error). Run 'tally verify --help'.")
            return ExitCode.usage
        }
        print(String(decoding: render(result, encoder: Output.encoder(compact: false)), as: UTF8.self))
        switch result {
        case .valid, .validReceipt: return ExitCode.ok
        case .invalid(let failure):
            Output.error("tally verify: \(failure.reason.rawValue): \(failure.detail)")
            return ExitCode.refused
        }
    }
}
