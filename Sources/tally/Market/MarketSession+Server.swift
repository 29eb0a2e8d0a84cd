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
        let appUserId = await store.serverLink?.appUserId ?? link.appUserId ?? ""
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
        guard options.link != nil else { throw UsageError("login needs a server: --server URL --key KEY") }
        // An anonymous customer is aliased to the id first, so what it bought follows (Store.logIn).
        let change = try await store.logIn(appUserId)
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
                + "posted again with back-off while the market runs, by 'restore' after a restart")
        }
        for refused in change.refused {
            Output.error("note: the server refused restored \(refused.transaction.productId) (\(refused.status) "
                + "\(refused.code): \(refused.message))")
        }
        return ExitCode.ok
    }

    /// `login --json`: `{"appUserId","previousAppUserId","ownership","transferred":[…],"kept":[…],"notPosted":[…],
    /// "refused":[…]}` (product ids).
    private struct LoginReport: Encodable {
        var appUserId: String
        var previousAppUserId: String
        var ownership: String
        var transferred: [String]
        var kept: [String]
        var notPosted: [String]
        var refused: [String]

        init(_ change: CustomerSwitch) {
            appUserId = change.appUserId
            previousAppUserId = change.previousAppUserId
            ownership = change.ownership.rawValue
            transferred = change.transferred.map(\.productId)
            kept = change.kept.map(\.productId)
            notPosted = change.notPosted.map(\.productId)
            refused = change.refused.map(\.transaction.productId)
        }
    }
}

extension MarketSession {
    /// `logout`: a new anonymous customer (``Store/logOut()``); prints the new id.
    func logout(json: Bool) async throws -> Int32 {
        guard options.link != nil else { throw UsageError("logout needs a server: --server URL --key KEY") }
        let previous = await store.appUserId ?? ""
        let fresh = try await store.logOut()
        if json {
            Console.line(try Output.json(["appUserId": fresh, "previousAppUserId": previous]))
        } else {
            Console.line("Logged out of \(previous); now anonymous as \(fresh)")
        }
        return ExitCode.ok
    }

    /// `attributes KEY=VALUE…`: sets the customer's attributes on the server (``Store/setAttributes(_:)``).
    func attributes(_ arguments: Arguments, json: Bool) async throws -> Int32 {
        guard options.link != nil else { throw UsageError("attributes needs a server: --server URL --key KEY") }
        var attributes: [String: String] = [:]
        for word in arguments.positionals {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw UsageError("'\(word)' is not KEY=VALUE")
            }
            attributes[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        guard !attributes.isEmpty else { throw UsageError("attributes needs KEY=VALUE, e.g. email=a@b.c") }
        try await store.setAttributes(attributes)
        if json {
            Console.line(try Output.json(["attributes": attributes]))
        } else {
            Console.line("Attributes set: " + attributes.keys.sorted().map { "\($0)=\(attributes[$0] ?? "")" }
                .joined(separator: " "))
        }
        return ExitCode.ok
    }
}
