import Foundation

/// The interactive market: the products and labels, then commands read line by line from standard input
/// until `quit` or the end of input, with store events printed as they happen.
struct MarketInteractive {
    let session: MarketSession

    func run() async -> Int32 {
        let options = session.options
        Console.line("Tally Market — account \(options.account), device \(options.device), data \(options.data.path)"
            + (options.link.map { ", server \($0.url.absoluteString) as customer \($0.appUserId ?? "(the engine's own)")" } ?? ""))
        _ = await session.execute(["products"], json: false)
        _ = await session.execute(["status"], json: false)
        // Asked once here, the offering is asked again at each refresh and a change printed as an event.
        if options.link != nil { _ = await session.execute(["offerings"], json: false) }
        Console.line("Commands: products | status | buy PRODUCT_ID [--quantity N] | restore | spend CURRENCY AMOUNT"
            + (options.link == nil ? "" : " | login APP_USER_ID | logout | attributes K=V…") + " | offerings | help | quit")
        let clockWatch = watchClock()
        let appStoreWatch = watchAppStore()
        while true {
            await settle()
            session.prompt.show()
            let read = await Self.readLine()
            session.prompt.leave()
            guard let line = read else { break }
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            if words.first == "quit" || words.first == "exit" { break }
            if words.isEmpty { continue }
            _ = await session.execute(words, json: false)
        }
        clockWatch.cancel()
        appStoreWatch.cancel()
        await clockWatch.value
        await appStoreWatch.value
        Console.line("")
        return ExitCode.ok
    }

    /// Re-reads the state and the subscriptions' renewal info every second, so a subscription ending because
    /// `tally sandbox advance` moved the clock shows as an `expired` event while the market waits for a command.
    /// A failed read is retried at the next tick without a note (the prompt would be interrupted each second).
    private func watchClock() -> Task<Void, Never> {
        Task { [store = session.store] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 1_000_000_000)
                _ = await MarketSession.currentState(of: store, quiet: true)
            }
        }
    }

    /// Prints each purchase the customer starts in the App Store (`tally sandbox promote`) and each App Store message
    /// (`tally sandbox message`) as the engine receives them. Interactive only: receiving takes them from the
    /// sandbox, which a one-shot command must not do. The market has no window scene to show a message in.
    private func watchAppStore() -> Task<Void, Never> {
        let intents = session.store.promotedPurchases()
        let messages = session.store.storeMessages()
        return Task { [prompt = session.prompt] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await intent in intents {
                        prompt.print(["App Store: the customer started buying \(intent.productId) there (a promoted "
                            + "purchase); complete it with 'buy \(intent.productId)'"])
                    }
                }
                group.addTask {
                    for await message in messages {
                        prompt.print(["App Store message (\(message.reason.rawValue), \(message.id)): an app shows it "
                            + "with store.display(_:in:) when it suits; the market has no screen to show it on"])
                    }
                }
            }
        }
    }

    /// Gives the event printer a moment to print what the last command emitted, so output reads in order.
    private func settle() async {
        for _ in 0..<8 { await Task.yield() }
        try? await Task.sleep(nanoseconds: 40_000_000)
    }

    /// Reads a line off the concurrency pool, so a waiting read never starves the event printer.
    private static func readLine() async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Swift.readLine()) }
        }
    }
}
