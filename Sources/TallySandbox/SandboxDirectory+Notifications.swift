import Foundation
import TallyLocking
import TallyCore

/// Signers of the sandboxes this process changed, by directory path: the CA is read once per process.
private let notificationSigners = Locked<[String: SandboxSigner]>([:])

extension SandboxDirectory {
    /// The signer of this sandbox's CA (`ca/`, created when missing), which signs its notifications.
    func notificationSigner() throws -> SandboxSigner {
        let key = url.standardizedFileURL.path
        if let signer = notificationSigners.withLock({ $0[key] }) { return signer }
        let signer = try SandboxCertificateAuthority.loadOrGenerate(in: url, now: Date()).signer()
        notificationSigners.withLock { $0[key] = signer }
        return signer
    }

    /// Every recorded notification, oldest `signedDate` first.
    public func notifications() throws(SandboxError) -> [SandboxNotification] {
        let database = try openDatabase()
        return try database.readNotifications(where: "", [])
    }

    /// The notifications due at the sandbox's now (pending, their next attempt not later), in order of
    /// `signedDate` (then of recording), with the store's settings and clock as they are.
    public func dueNotifications() throws(SandboxError) -> (notifications: [SandboxNotification],
                                                            settings: SandboxSettings, now: Date) {
        let database = try openDatabase()
        return try Self.typed {
            try database.transaction(writing: false) {
                let header = try database.readHeader()
                let due = try database.readNotifications(
                    where: "status = 'pending' AND next_attempt_ms <= ?", [.integer(header.now.millisecondsSince1970)])
                return (due, header.settings, header.now)
            }
        }
    }

    /// Records one attempt to deliver the notification `uuid`, made at the sandbox's now: delivered on
    /// success; otherwise due again on Apple's schedule (``NotificationRetrySchedule``) while retries are on
    /// and left, else failed. A notification no longer pending is left as it is. Returns the record as saved.
    @discardableResult
    public func recordAttempt(uuid: String, result: SendAttemptResult,
                              httpStatus: Int? = nil) throws(SandboxError) -> SandboxNotification? {
        try Self.typed {
            try withLock { () throws(SandboxError) -> SandboxNotification? in
                let database = try openDatabase()
                return try Self.typed {
                    try database.transaction(writing: true) { () throws -> SandboxNotification? in
                        let header = try database.readHeader()
                        guard var record = try database.readNotifications(where: "uuid = ?", [.text(uuid)]).first,
                              record.status == .pending else { return nil }
                        record.sendAttempts.append(SandboxNotification.Attempt(
                            attemptDate: header.now, sendAttemptResult: result, httpStatus: httpStatus))
                        if result == .success {
                            record.status = .delivered
                            record.nextAttemptDate = nil
                        } else if let next = NotificationRetrySchedule.nextAttempt(
                            after: header.now, attemptsMade: record.sendAttempts.count,
                            retries: header.settings.retriesNotifications) {
                            record.nextAttemptDate = next
                        } else {
                            record.status = .failed
                            record.nextAttemptDate = nil
                        }
                        try database.updateNotification(record)
                        return record
                    }
                }
            }
        }
    }

    /// Records a `TEST` notification (Request a Test Notification), signed at the sandbox's now and due at once;
    /// returns it with its new `testNotificationToken`.
    public func requestTestNotification() throws(SandboxError) -> SandboxNotification {
        try Self.typed {
            try withLock { () throws -> SandboxNotification in
                let database = try openDatabase()
                return try database.transaction(writing: true) { () throws -> SandboxNotification in
                    let header = try database.readHeader()
                    let builder = SandboxNotificationBuilder(
                        signer: try notificationSigner(), bundleId: header.configuration.bundleId, appAppleId: nil,
                        environment: header.environment)
                    let built = try builder.testNotification(at: header.now)
                    let token = UUID().uuidString.lowercased() + "_" + String(header.now.millisecondsSince1970)
                    let record = try database.insertNotification(built, account: "", event: nil, transactionId: nil,
                                                                 testToken: token)
                    // A change like any other: a sender watching the change counter sees it.
                    try database.write("UPDATE store SET generation = generation + 1 WHERE id = 1", [])
                    return record
                }
            }
        }
    }

    /// The TEST notification Request a Test Notification answered `token` for; nil when there is none.
    public func testNotification(token: String) throws(SandboxError) -> SandboxNotification? {
        let database = try openDatabase()
        return try database.readNotifications(where: "test_token = ? AND test_token != ''", [.text(token)]).first
    }
}
