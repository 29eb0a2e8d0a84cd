import Foundation
import TallyCore
import Testing

/// Whether headless Chromium, its driver and Selenium are installed (scripts/install-deps.sh installs them).
enum BrowserTools {
    static let chromium = ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"
    static let driver = ProcessInfo.processInfo.environment["CHROMEDRIVER"] ?? "/usr/bin/chromedriver"
    /// In CI (`CI=true`) the browser test always runs, so a missing browser fails it instead of skipping.
    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Nil when everything is there; else what is missing.
    static let missing: String? = {
        let files = FileManager.default
        if !files.isExecutableFile(atPath: chromium) { return "no Chromium at \(chromium)" }
        if !files.isExecutableFile(atPath: driver) { return "no chromedriver at \(driver)" }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import selenium"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return "no python3" }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? nil : "no Selenium for python3 (pip install selenium)"
    }()

    /// The browser tests' `.enabled(if:)` condition: everything is installed, or `CI=true` (where a missing tool
    /// fails the test's first `#require` instead of skipping it).
    static var shouldRun: Bool { missing == nil || inCI }

    /// Runs `python3 Tests/TallyServerProcessTests/<script> <arguments>`, printing its output; its exit status and output.
    static func runScript(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestPaths.packageRoot.appendingPathComponent("Tests/TallyServerProcessTests/\(script)").path]
            + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        print(text)
        return (process.terminationStatus, text)
    }

    /// Where the screenshots go (`TALLY_SCREENSHOTS`, else `.build/dashboard-screenshots`).
    static var screenshots: URL {
        if let path = ProcessInfo.processInfo.environment["TALLY_SCREENSHOTS"] { return URL(fileURLWithPath: path) }
        return TestPaths.packageRoot.appendingPathComponent(".build/dashboard-screenshots")
    }
}

extension ServerProcessTests {
    /// The dashboard in a real headless Chromium, against a seeded real `tally serve`.
    @Suite struct DashboardBrowser {
        /// A `TEST` notification (stored `recorded`: it carries no customer state) and a `ONE_TIME_CHARGE` for a
        /// chain no customer has posted (stored `pending`): neither names a customer.
        static func seedNotificationsWithoutACustomer(_ fixture: ServerFixture) async throws {
            var market = try fixture.market()
            let test = ServerNotification(
                notificationType: .test, notificationUUID: UUID().uuidString, signedDate: Date(),
                data: NotificationData(bundleId: "com.example.market", environment: .sandbox))
            let recorded = try await Notifications.post(try market.sign(test), to: fixture.client)
            #expect(try recorded.json()["result"] as? String == "recorded", "\(recorded)")
            // A fresh sandbox numbers its transactions as the seed's did: this one gets an id no seeded chain has.
            var unposted = try market.buy("market.coins.100", account: "unposted")
            unposted.transactionId = "3" + unposted.transactionId
            unposted.originalTransactionId = unposted.transactionId
            let jws = try market.signed(unposted)
            let charge = ServerNotification(
                notificationType: .oneTimeCharge, notificationUUID: UUID().uuidString, signedDate: Date(),
                data: NotificationData(bundleId: "com.example.market", environment: .sandbox, signedTransactionInfo: jws))
            let pending = try await Notifications.post(try market.sign(charge), to: fixture.client)
            #expect(try pending.json()["result"] as? String == "pending", "\(pending)")
        }

        @Test(.enabled(if: BrowserTools.shouldRun, "needs chromium, chromium-driver and selenium"))
        func theDashboardShowsTheAPIsNumbersAndEveryIdAsText() async throws {
            try #require(BrowserTools.missing == nil, "CI=true: \(BrowserTools.missing ?? "")")
            let fixture = try ServerFixture()
            let bought = try await Dashboard.seed(fixture)
            let bob = try #require(bought["bob"]?.first)
            try await Self.seedNotificationsWithoutACustomer(fixture)
            // The XSS customer has an alias and an attribute whose value is markup: the customer page lists both as text.
            let xss = "<img src=x onerror=alert(1)>", anonymous = AnonymousCustomerId.make()
            #expect(try await fixture.client.setAttributes(["bio": "<img src=y onerror=alert(2)>"], for: xss).status == 200)
            #expect(try await fixture.client.alias(anonymous, to: xss).status == 200)
            let screenshots = BrowserTools.screenshots
            try? FileManager.default.removeItem(at: screenshots)
            print("dashboard screenshots: \(screenshots.path)")
            let (status, text) = try BrowserTools.runScript("dashboard_browser.py", [
                fixture.client.base, fixture.keys.dashboardKey, screenshots.path, bob.transactionId, "bob", "cy",
                "<img src=x onerror=alert(1)>",
            ])
            #expect(status == 0, "the browser checks failed:\n\(text)")
            for name in ["login-error", "overview", "search", "refunded", "xss-as-text", "overview-range", "notifications"] {
                #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent(name + ".png").path),
                        "screenshot \(name).png")
            }
        }

        /// The Offers page against a server seeded with transactions bought with offers (one offer id is markup).
        @Test(.enabled(if: BrowserTools.shouldRun, "needs chromium, chromium-driver and selenium"))
        func theOffersPageListsRedemptionsAndTotalsAsText() async throws {
            try #require(BrowserTools.missing == nil, "CI=true: \(BrowserTools.missing ?? "")")
            let fixture = try ServerFixture()
            _ = try await DashboardOffers.seed(fixture)
            let screenshots = BrowserTools.screenshots.appendingPathComponent("offers")
            try? FileManager.default.removeItem(at: screenshots)
            let (status, text) = try BrowserTools.runScript("dashboard_offers_browser.py", [
                fixture.client.base, fixture.keys.dashboardKey, screenshots.path, DashboardOffers.markup,
            ])
            #expect(status == 0, "the offers page checks failed:\n\(text)")
            for name in ["offers", "offers-older"] {
                #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent(name + ".png").path),
                        "screenshot \(name).png")
            }
        }

        /// The Offerings page against a server seeded from the Market's `offerings.json`.
        @Test(.enabled(if: BrowserTools.shouldRun, "needs chromium, chromium-driver and selenium"))
        func theOfferingsPageListsEditsAndRollsBackTheDocument() async throws {
            try #require(BrowserTools.missing == nil, "CI=true: \(BrowserTools.missing ?? "")")
            var options = ServerOptions()
            options.offeringsSeed = true
            let fixture = try ServerFixture(options)
            let screenshots = BrowserTools.screenshots.appendingPathComponent("offerings")
            try? FileManager.default.removeItem(at: screenshots)
            let (status, text) = try BrowserTools.runScript("dashboard_offerings_browser.py", [
                fixture.client.base, fixture.keys.dashboardKey, fixture.keys.secretKey, screenshots.path,
            ])
            #expect(status == 0, "the offerings page checks failed:\n\(text)")
            for name in ["offerings", "offerings-saved", "offerings-conflict", "offerings-rollback"] {
                #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent(name + ".png").path),
                        "screenshot \(name).png")
            }
        }
    }
}
