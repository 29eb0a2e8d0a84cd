import Foundation
import Tally
import TallyCore
import TallySandbox

/// `tally market …`: the tutorials' demo shop over the engine, with the sandbox in `--data` as its App Store.
enum MarketCommand {
    /// Runs the market (interactive without a command) and returns the exit code.
    static func run(_ words: [String]) -> Int32 {
        if words.contains("--help") || words.contains("-h") || words.first == "help" && words.count == 1 {
            Console.line(MarketHelp.text)
            return ExitCode.ok
        }
        let options: MarketOptions
        let command: [String]
        do {
            let arguments = try Arguments(words, flags: ["json", "intro-eligibility"], options: MarketOptions.names)
            options = try MarketOptions(arguments)
            command = commandWords(arguments)
            if arguments.positionals.isEmpty, arguments.value("quantity") != nil { throw UsageError("--quantity belongs to 'buy'") }
        } catch {
            Output.error("tally market: \(describe(error))")
            Output.error("usage: \(MarketHelp.usage)")
            return ExitCode.usage
        }
        return Blocking.run {
            let session: MarketSession
            do {
                session = try await MarketSession.open(options)
            } catch {
                Output.error("tally market: \(describe(error))")
                return error is UsageError || error is SandboxError || error is TallyError ? ExitCode.usage
                    : ExitCode.refused
            }
            let printer = session.printEvents(quiet: options.json && !command.isEmpty)
            let status = command.isEmpty ? await MarketInteractive(session: session).run()
                : await session.execute(command, json: options.json)
            await session.store.close()
            await printer.value
            return status
        }
    }

    /// The command to run: the positionals, with `buy`'s `--quantity` and `offerings`' `--placement` handed on.
    static func commandWords(_ arguments: Arguments) -> [String] {
        arguments.positionals + (arguments.value("quantity").map { ["--quantity", $0] } ?? [])
            + (arguments.value("placement").map { ["--placement", $0] } ?? [])
            + (arguments.value("offer").map { ["--offer", $0] } ?? [])
            + (arguments.value("win-back").map { ["--win-back", $0] } ?? [])
            + (arguments.flag("intro-eligibility") ? ["--intro-eligibility"] : [])
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as UsageError: error.message
        case let error as SandboxError: error.message
        case let error as TallyError: error.message
        case let error as StoreError: error.message
        default: "\(error)"
        }
    }
}

extension MarketSession {
    /// Prints every store event as it happens (unless `quiet`); the task ends when the store closes. An event
    /// arriving while the interactive market waits at its prompt redraws the prompt after it.
    func printEvents(quiet: Bool) -> Task<Void, Never> {
        let events = store.events()
        return Task { [prompt] in
            for await event in events where !quiet {
                prompt.print(MarketEventText.lines(event))
            }
        }
    }
}
