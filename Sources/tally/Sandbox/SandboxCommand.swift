import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox …`: the App Store side, kept in a data directory.
enum SandboxCommand {
    /// Runs one sandbox subcommand and returns its exit code.
    static func run(_ words: [String]) -> Int32 {
        guard let name = words.first, name != "help", name != "--help", name != "-h" else {
            print(SandboxHelp.overview)
            return ExitCode.ok
        }
        let rest = Array(words.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(SandboxHelp.text(for: name) ?? SandboxHelp.overview)
            return ExitCode.ok
        }
        do {
            switch name {
            case "init": return try SandboxInit.run(rest)
            case "reload": return try SandboxReloadCommand.run(rest)
            case "products": return try SandboxProducts.run(rest)
            case "buy": return try SandboxBuy.run(rest)
            case "offer-code": return try SandboxOfferCodeCommand.run(rest)
            case "approve", "decline", "resolve": return try SandboxAskToBuy.run(name, rest)
            case "refund": return try SandboxRefund.run(rest)
            case "refund-request": return try SandboxRefundRequestCommand.run(rest)
            case "refund-reverse": return try SandboxRefundReverse.run(rest)
            case "promote": return try SandboxPromote.run(rest)
            case "message": return try SandboxMessageCommand.run(rest)
            case "sheets": return try SandboxSheets.run(rest)
            case "advance": return try SandboxAdvance.run(rest)
            case "auto-renew": return try SandboxAutoRenew.run(rest)
            case "set": return try SandboxSet.run(rest)
            case "fail": return try SandboxFail.run(rest)
            case "restore": return try SandboxRestore.run(rest)
            case "history": return try SandboxHistory.run(rest)
            case "state": return try SandboxState.run(rest)
            case "notifications": return try SandboxNotifications.run(rest)
            case "root": return try SandboxRoot.run(rest)
            case "serve": return try SandboxServe.run(rest)
            case "api-key": return try SandboxAPIKey.run(rest)
            default:
                Output.error("tally sandbox: unknown command '\(name)'. Run 'tally sandbox help'.")
                return ExitCode.usage
            }
        } catch let error as UsageError {
            Output.error("tally sandbox \(name): \(error.message)")
            if let usage = SandboxHelp.usageLine(for: name) { Output.error("usage: \(usage)") }
            return ExitCode.usage
        } catch let error as SandboxError {
            Output.error("tally sandbox \(name): \(error.message)")
            return SandboxCommand.exitCode(for: error)
        } catch let error as SigningError {
            Output.error("tally sandbox \(name): \(error.message)")
            return ExitCode.usage
        } catch let error as TallyError {
            Output.error("tally sandbox \(name): \(error.message)")
            return ExitCode.usage
        } catch {
            Output.error("tally sandbox \(name): \(error)")
            return ExitCode.refused
        }
    }

    /// Bad input (unknown ids, bad durations, a missing or unreadable state) is exit 2, as in `tally market`;
    /// refusals by the store are exit 1.
    static func exitCode(for error: SandboxError) -> Int32 {
        switch error.code {
        case .unknownProduct, .unknownPurchase, .unknownTransaction, .invalidDuration, .invalidQuantity,
             .corruptState, .noState, .io:
            return ExitCode.usage
        default:
            return ExitCode.refused
        }
    }
}
