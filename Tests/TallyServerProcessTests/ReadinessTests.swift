import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension ServerProcessTests {
    /// `/readyz` fails while writes fail and recovers by itself; `/healthz` stays a liveness check.
    @Suite struct Readiness {
        /// In CI (`CI=true`) the root-only tests always run, so a machine that cannot do what they need fails them.
        static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"

        /// Whether a 1 MiB tmpfs can be mounted here (root with CAP_SYS_ADMIN), tried once on a scratch directory.
        static let canMountTmpfs: Bool = {
            let point = FileManager.default.temporaryDirectory.appendingPathComponent("tally-tmpfs-probe-\(UUID().uuidString)").path
            guard (try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)) != nil else { return false }
            defer { try? FileManager.default.removeItem(atPath: point) }
            guard let mount = try? runCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tally-probe", point]),
                  mount.status == 0 else { return false }
            _ = try? runCommand("/bin/umount", [point])
            return true
        }()

        /// Whether `chattr +i` works on a file of the temporary directory's file system, tried once.
        static let chattrWorks: Bool = {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-chattr-probe-\(UUID().uuidString)").path
            guard FileManager.default.createFile(atPath: file, contents: Data()) else { return false }
            defer { try? FileManager.default.removeItem(atPath: file) }
            guard let lock = try? runCommand("/usr/bin/chattr", ["+i", file]), lock.status == 0 else { return false }
            _ = try? runCommand("/usr/bin/chattr", ["-i", file])
            return true
        }()

        /// Polls `/readyz` (every 100 ms, at most 10 s) until the server's log shows that a probe write ran and
        /// failed (`GET /readyz: not ready`, logged by the probe only); every answer on the way must be 503
        /// `not_ready`. True when the failed probe was logged.
        static func waitForFailedProbe(_ fixture: ServerFixture) async throws -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let reply = try await fixture.client.send("GET", "/readyz")
                #expect(reply.status == 503 && reply.errorCode == "not_ready", "\(reply)")
                if fixture.server.stderr.text.contains("GET /readyz: not ready") { return true }
                try await Task.sleep(for: .milliseconds(100))
            }
            return false
        }

        @Test func readyzIs200AndNeedsNoKey() async throws {
            let fixture = try ServerFixture()
            let reply = try await fixture.client.send("GET", "/readyz")
            #expect(reply.status == 200, "\(reply)")
            #expect(try reply.json()["status"] as? String == "ready")
            let post = try await fixture.client.send("POST", "/readyz")
            #expect(post.status == 405 && post.header("Allow") == "GET, HEAD", "\(post)")
        }

        /// The data directory on a 4 MiB tmpfs, filled up while the server runs, then emptied again.
        @Test(.enabled(if: inCI || canMountTmpfs, "needs root with CAP_SYS_ADMIN to mount a tmpfs"))
        func aFullDiskMakesReadyz503UntilSpaceIsFreedWithoutARestart() async throws {
            let fixture = try ServerFixture()
            try fixture.server.killNow()
            let mountPoint = fixture.dataDirectory.path
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
            let mount = try runCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tally-readyz", mountPoint])
            try #require(mount.status == 0, "cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN): \(mount.output)")
            defer {
                try? fixture.server.killNow()
                _ = try? runCommand("/bin/umount", ["-l", mountPoint])
            }
            try fixture.restart()
            let pid = fixture.server.pid
            let client = fixture.client
            var market = try fixture.market()
            let (_, premium) = try market.buySigned("market.premium", account: "ann")
            let (coins, coinsJWS) = try market.buySigned("market.coins.100", account: "ann")
            #expect(try await client.send("GET", "/readyz").status == 200)
            #expect(try await client.postTransaction(premium, for: "ann").status == 200)

            let filler = mountPoint + "/filler"
            let written = try Self.fill(filler)
            #expect(written > 0, "the tmpfs took no filler")
            let refused = try await client.postTransaction(coinsJWS, for: "ann")
            #expect(refused.status == 503 && refused.errorCode == "unavailable", "a write on a full disk: \(refused)")
            let notReady = try await client.send("GET", "/readyz")
            #expect(notReady.status == 503, "\(notReady)")
            #expect(notReady.errorCode == "not_ready", "\(notReady)")
            #expect(!notReady.text.contains(mountPoint), "the answer must not name paths: \(notReady.text)")
            await expectHealthy(client, after: "a full disk (liveness is not readiness)")
            // Past the failed write's interval, the probe decides: still full, still not ready, and the log says why.
            #expect(try await Self.waitForFailedProbe(fixture), "no failed probe logged: \(fixture.server.stderr.text)")

            try FileManager.default.removeItem(atPath: filler)
            let recovered = try await Self.waitForReady(client)
            #expect(recovered, "/readyz did not come back within 10 s of freeing the disk")
            let posted = try await client.postTransaction(coinsJWS, for: "ann")
            #expect(posted.status == 200, "a write after the disk was freed: \(posted)")
            #expect(JSONFields.balance(try await client.customer("ann")) == 100, "coins \(coins.transactionId)")
            #expect(fixture.server.pid == pid && fixture.server.isRunning, "recovered without a restart")
        }

        /// The database files made immutable (`chattr +i`: root ignores permission bits, not this flag),
        /// the closest to a read-only file system a running server allows (Linux refuses to remount
        /// read-only while files are open for writing).
        @Test(.enabled(if: inCI || chattrWorks, "needs chattr +i (root, a file system with the immutable flag)"))
        func anUnwritableDatabaseMakesReadyz503UntilItIsWritableAgain() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let (_, premium) = try market.buySigned("market.premium", account: "ann")
            let (_, coinsJWS) = try market.buySigned("market.coins.100", account: "ann")
            #expect(try await client.postTransaction(premium, for: "ann").status == 200)
            let files = ["tally.sqlite", "tally.sqlite-wal"].map { fixture.dataDirectory.appendingPathComponent($0).path }
            let lock = try runCommand("/usr/bin/chattr", ["+i"] + files)
            try #require(lock.status == 0, "chattr +i does not work on \(fixture.dataDirectory.path): \(lock.output)")
            var unlocked = false
            defer { if !unlocked { _ = try? runCommand("/usr/bin/chattr", ["-i"] + files) } }
            let refused = try await client.postTransaction(coinsJWS, for: "ann")
            #expect(refused.status == 503, "a write to an immutable database: \(refused)")
            let notReady = try await client.send("GET", "/readyz")
            #expect(notReady.status == 503 && notReady.errorCode == "not_ready", "\(notReady)")
            // Past the failed write's interval, the probe write fails too.
            #expect(try await Self.waitForFailedProbe(fixture), "no failed probe logged: \(fixture.server.stderr.text)")
            await expectHealthy(client, after: "an unwritable database")

            #expect(try runCommand("/usr/bin/chattr", ["-i"] + files).status == 0)
            unlocked = true
            #expect(try await Self.waitForReady(client), "/readyz did not come back within 10 s")
            let posted = try await client.postTransaction(coinsJWS, for: "ann")
            #expect(posted.status == 200, "\(posted)")
        }

        /// Polls `/readyz` (every 100 ms, at most 10 s) until it answers 200.
        static func waitForReady(_ client: APIClient) async throws -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if try await client.send("GET", "/readyz").status == 200 { return true }
                try await Task.sleep(for: .milliseconds(100))
            }
            return false
        }

        /// Writes zeros to `path` until the file system is full; the bytes written.
        static func fill(_ path: String) throws -> Int {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard descriptor >= 0 else { throw HarnessError("cannot create \(path): errno \(errno)") }
            defer { close(descriptor) }
            let chunk = [UInt8](repeating: 0, count: 65_536)
            var total = 0
            while true {
                let count = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                total += count
            }
            // Less than a page may remain: take it too.
            let byte: [UInt8] = [0]
            while byte.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) == 1 { total += 1 }
            return total
        }
    }
}
