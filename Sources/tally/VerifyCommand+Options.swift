import Foundation
import TallyCore
import TallyVerify

extension VerifyCommand {
    /// What `tally verify` was asked to do.
    struct Options {
        /// The JWS verifier, or why these options cannot make one (a receipt never needs it).
        var verifier: Result<SignedDataVerifier, UsageError>
        /// Legacy app receipts (`--kind receipt`, or input starting with `MII`).
        var receiptVerifier: ReceiptVerifier
        var receiptDate: ReceiptVerifier.EffectiveDate
        var kind: String
        var lines: Bool
        var file: String?

        static let allowed: Set<String> = [
            "root", "bundle-id", "app-apple-id", "environment", "at", "online", "kind", "lines", "help", "h",
        ]
        static let kinds = ["auto", "transaction", "renewal", "notification", "app-transaction", "receipt"]

        init(_ arguments: Arguments) throws(UsageError) {
            try arguments.requireOnly(Self.allowed)
            guard arguments.positionals.count <= 1 else {
                throw UsageError("give one FILE (or '-'); got \(arguments.positionals.count)")
            }
            file = arguments.positionals.first
            lines = arguments.flag("lines")
            kind = arguments.value("kind") ?? "auto"
            guard Self.kinds.contains(kind) else {
                throw UsageError("--kind \(kind) is not one of \(Self.kinds.joined(separator: ", "))")
            }
            var roots = [AppleRootCertificates.appleRootCAG3]
            var extraRoots: [Certificate] = []
            for path in arguments.values("root") {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw UsageError("--root \(path): cannot read the file")
                }
                let certificates = Certificate.parseAll(data)
                guard !certificates.isEmpty else {
                    throw UsageError("--root \(path): no certificate found (DER or PEM expected)")
                }
                roots += certificates
                extraRoots += certificates
            }
            var appAppleId: Int64?
            if let text = arguments.value("app-apple-id") {
                guard let value = Int64(text) else { throw UsageError("--app-apple-id \(text) is not a number") }
                appAppleId = value
            }
            let environment = try Self.environment(arguments.value("environment") ?? "production")
            let online = arguments.flag("online")
            let effectiveDate = try Self.effectiveDate(arguments.value("at"))
            let configuration = VerifierConfiguration(
                rootCertificates: roots, bundleId: arguments.value("bundle-id"), appAppleId: appAppleId,
                environment: environment, onlineChecks: online, effectiveDate: effectiveDate)
            do {
                // Receipts: Apple Inc. Root CA plus every --root; with --environment xcode the first --root
                // is the StoreKit Testing certificate.
                let xcode = environment == .xcode
                receiptVerifier = try ReceiptVerifier(
                    trustedRoots: [ReceiptVerifier.appleIncRootCertificate] + extraRoots.map { Data($0.der) },
                    storeKitTestCertificate: xcode ? extraRoots.first.map { Data($0.der) } : nil,
                    expectedBundleId: arguments.value("bundle-id"))
            } catch {
                throw UsageError("--root: \(error.detail)")
            }
            switch effectiveDate {
            case nil: receiptDate = online ? .now : .receiptCreationDate
            case .now: receiptDate = .now
            case .signedDate: receiptDate = .receiptCreationDate
            case .fixed(let date): receiptDate = .date(date)
            }
            do {
                verifier = .success(try SignedDataVerifier(configuration: configuration))
            } catch {
                // Only JWS need it: --kind receipt never does, and --kind auto only once a JWS comes.
                let problem = UsageError(
                    "\(error.message) (--environment \(environment.rawValue) needs --app-apple-id to verify a JWS)")
                guard kind == "receipt" || kind == "auto" else { throw problem }
                verifier = .failure(problem)
            }
        }

        static func environment(_ text: String) throws(UsageError) -> StoreEnvironment {
            switch text.lowercased() {
            case "production": return .production
            case "sandbox": return .sandbox
            case "xcode": return .xcode
            case "local-testing", "localtesting": return .localTesting
            default: throw UsageError("--environment \(text) is not production, sandbox, xcode or local-testing")
            }
        }

        static func effectiveDate(_ text: String?) throws(UsageError) -> EffectiveDatePolicy? {
            guard let text else { return nil }
            switch text {
            case "now": return .now
            case "signed-date": return .signedDate
            default:
                let formatter = ISO8601DateFormatter()
                if let date = formatter.date(from: text) { return .fixed(date) }
                formatter.formatOptions = [.withFullDate]
                if let date = formatter.date(from: text) { return .fixed(date) }
                throw UsageError("--at \(text) is not now, signed-date or an ISO 8601 date (2024-02-02T15:28:49Z)")
            }
        }
    }
}
