import Foundation
import TallyHTTP
import TallySandbox
import TallySandboxServer
import TallyServices

/// `tally sandbox serve --data DIR [--listen HOST:PORT] [--rate-limit N] [--notification-timeout SECONDS]`: the
/// App Store Server API over the sandbox in DIR, and the sender of its notifications, until SIGINT or SIGTERM.
enum SandboxServe {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words, allowed: ["listen", "rate-limit", "notification-timeout"])
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        let context = SandboxContext(arguments)
        let listen = try arguments.value("listen").map { text throws(UsageError) -> ListenAddress in
            guard let address = ListenAddress(text) else {
                throw UsageError("--listen must be HOST:PORT, such as 127.0.0.1:8090 (port 0 picks a free one)")
            }
            return address
        } ?? ListenAddress(host: "127.0.0.1", port: 8090)
        var rate: Double?
        if let text = arguments.value("rate-limit") {
            guard let value = Double(text), value.isFinite, value >= 0 else {
                throw UsageError("--rate-limit must be requests per second per key (0: none), got '\(text)'")
            }
            rate = value > 0 ? value : nil
        }
        guard (0...65_535).contains(listen.port) else { throw UsageError("--listen: port must be 0…65535") }
        var timeout: TimeInterval = 5
        if let text = arguments.value("notification-timeout") {
            guard let value = Double(text), value.isFinite, value > 0 else {
                throw UsageError("--notification-timeout must be seconds above 0, got '\(text)'")
            }
            timeout = value
        }
        _ = try context.load()  // a missing or damaged sandbox is exit 2 before anything listens
        let stop = SignalWait(signals: [SIGINT, SIGTERM])
        let api = try AppStoreServerAPI(directory: context.url, requestsPerSecond: rate)
        let server = try HTTPServer(
            configuration: HTTPServer.Configuration(host: listen.host, port: UInt16(listen.port), threads: 2,
                                                    maxBodyBytes: 64 * 1_024),
            handler: api.handler)
        FileHandle.standardOutput.write(Data(
            "tally sandbox serve: App Store Server API on http://\(listen.host):\(server.port)/inApps\n".utf8))
        let services = ServiceGroup([NotificationSender(directory: context.url, timeout: timeout)]) { failure in
            FileHandle.standardError.write(Data("tally sandbox serve: \(failure)\n".utf8))
        }
        services.start()
        stop.wait()
        services.stopAndWait()  // the attempt in flight, if any, is recorded first
        server.stop(gracePeriod: 5)
        return ExitCode.ok
    }
}

/// `tally sandbox api-key [--data DIR] [--json]`: makes an in-app purchase key the sandbox's App Store Server
/// API accepts, as App Store Connect's Keys page does.
enum SandboxAPIKey {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        let context = SandboxContext(arguments)
        let sandbox = try context.load()
        let created = try SandboxAPIKeys(directory: context.url).create()
        if context.json {
            try context.printJSON(["keyId": created.keyId, "issuerId": created.issuerId,
                                   "privateKeyPath": created.privateKeyPath, "bundleId": sandbox.bundleId])
        } else {
            print("key id:      \(created.keyId)")
            print("issuer id:   \(created.issuerId)")
            print("private key: \(created.privateKeyPath)")
            print("bundle id:   \(sandbox.bundleId)")
        }
        return ExitCode.ok
    }
}
