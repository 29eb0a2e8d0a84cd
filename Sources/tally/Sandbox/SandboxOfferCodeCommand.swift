import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox offer-code create --offer ID [--product P] [--count N] | redeem CODE [--account A] [--device D] |
/// list [--json] [--data DIR]`
enum SandboxOfferCodeCommand {
    static func run(_ words: [String]) throws -> Int32 {
        guard let verb = words.first else { throw UsageError("tally sandbox offer-code create|redeem|list") }
        let arguments = try Arguments.sandbox(Array(words.dropFirst()), allowed: ["offer", "product", "count"])
        let context = SandboxContext(arguments)
        switch verb {
        case "create":
            guard let offerId = arguments.value("offer") else { throw UsageError("offer-code create needs --offer ID (the codeOffers reference name)") }
            let text = arguments.value("count") ?? "1"
            guard let count = Int(text) else { throw UsageError("--count must be a whole number, not '\(text)'") }
            let codes = try context.mutate(accounts: []) { sandbox in
                try sandbox.createOfferCodes(offerId: offerId, count: count, productId: arguments.value("product"))
            }
            if context.json { try context.printJSON(codes) } else { codes.forEach { print($0.code) } }
            return ExitCode.ok
        case "redeem":
            let code = try arguments.positional(0, "CODE")
            let result: Result<StoreTransaction, SandboxError> = try context.mutate(accounts: [context.account]) { sandbox in
                do throws(SandboxError) {
                    return .success(try sandbox.redeemOfferCode(code, account: context.account, device: context.device))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let transaction):
                if context.json { try context.printJSON(transaction) } else {
                    print("redeemed \(code) for \(context.account): transaction \(transaction.transactionId) of \(transaction.productId)")
                }
                return ExitCode.ok
            case .failure(let error):
                if context.json { try context.printJSON(["error": error.message, "errorCode": error.code.rawValue]) }
                else { FileHandle.standardError.write(Data("tally sandbox: \(error.message)\n".utf8)) }
                return error.code == .unknownOfferCode ? ExitCode.usage : ExitCode.refused
            }
        case "list":
            let codes = try context.load().offerCodes
            if context.json { try context.printJSON(codes) } else {
                for code in codes {
                    print("\(code.code)  \(code.productId)  \(code.offerId)  \(code.redeemedBy.map { "redeemed by \($0)" } ?? "unused")")
                }
            }
            return ExitCode.ok
        default:
            throw UsageError("unknown offer-code verb '\(verb)': create, redeem or list")
        }
    }
}
