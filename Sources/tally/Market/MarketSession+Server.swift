import Foundation
import Tally
import TallyCore

/// The market's commands with `--server`: spends through the demo's app backend, and `login`.
extension MarketSession {
    /// `spend` with a server link: the engine offers no spend (the app's public key cannot), so the demo plays
    /// the app's backend with `--backend-key`, then refreshes the state from the server.
    func spendThroughBackend(_ amount: Decimal, of currency: String, json: Bool) async throws -> Int32 {
        guard let link = options.link, let secret = options.backendKey else {
            do { try await store.spend(amount, of: currency, id: UUID().uuidString) } catch {
                throw UsageError(error.message + ". This demo can play the app's backend: pass --backend-key SECRET "
                    + "(the server's secret key; demo only)")
            }
            return ExitCode.ok
        }
        let appUserId = await store.serverLink?.appUserId ?? link.appUserId
        let backend = MarketAppBackend(url: link.url, secretKey: secret)
        let answer: MarketAppBackend.Answer
        do { answer = try await backend.spend(amount, of: currency, for: appUserId, id: UUID().uuidString) } catch {
            Output.error("market spend: the app backend could not spend: \(error)")
            return ExitCode.refused
        }
        let balance = await store.refresh().balance(currency)
        switch answer {
        case .refused(let held):
            let message = "Refused by the server: \(amount) \(currency) is more than the balance of \(held)"
            if json { Console.line(try Output.json(SpendReport(outcome: "refused", balance: held, error: message))) }
            Output.error(message)
            return ExitCode.refused
        case .spent(let left):
            if json {
                Console.line(try Output.json(SpendReport(outcome: "spent", balance: left, error: nil)))
            } else {
                Console.line("Spent \(amount) \(Self.unit(currency, amount)) through the app backend "
                    + "(POST …/currencies/\(currency)/spend, secret key); \(currency.uppercased()): \(balance)")
            }
            return ExitCode.ok
        }
    }

    /// `login ID`: switches the market's customer on the server; restored purchases follow the server's
    /// ownership policy (transferred here, or kept by their owner).
    func login(_ arguments: Arguments, json: Bool) async throws -> Int32 {
        let appUserId = try arguments.positional(0, "APP_USER_ID")
        guard options.link != nil else { throw UsageError("login needs a server: --server URL --key KEY --user ID") }
        let change = try await store.switchCustomer(to: appUserId)
        if json {
            Console.line(try Output.json(LoginReport(change)))
            return ExitCode.ok
        }
        var line = "Logged in as \(change.appUserId) (was \(change.previousAppUserId))"
        switch change.ownership {
        case .transferred:
            line += ": transferred here " + change.transferred.map(\.productId).joined(separator: ", ")
        case .kept:
            line += ": kept by the customer who owns them " + change.kept.map(\.productId).joined(separator: ", ")
        case .none:
            line += ": nothing changed owner"
        }
        Console.line(line)
        if !change.notPosted.isEmpty {
            Output.error("note: \(change.notPosted.count) restored purchase(s) not posted (server unreachable); "
                + "'restore' posts them again")
        }
        return ExitCode.ok
    }

    /// `login --json`: `{"appUserId","previousAppUserId","ownership","transferred":[…],"kept":[…],"notPosted":[…]}`.
    private struct LoginReport: Encodable {
        var appUserId: String
        var previousAppUserId: String
        var ownership: String
        var transferred: [String]
        var kept: [String]
        var notPosted: [String]

        init(_ change: CustomerSwitch) {
            appUserId = change.appUserId
            previousAppUserId = change.previousAppUserId
            ownership = change.ownership.rawValue
            transferred = change.transferred.map(\.productId)
            kept = change.kept.map(\.productId)
            notPosted = change.notPosted.map(\.productId)
        }
    }
}
