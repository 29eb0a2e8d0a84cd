import Foundation
import TallyCrypto
import TallyHTTP
import TallySandbox

extension AppStoreServerAPI {
    /// Notification history records per page, as Apple sends.
    static let notificationPageSize = 20

    /// `/inApps/v1/notifications/…`: Get Notification History, Request a Test Notification, Get Test
    /// Notification Status.
    func notifications(_ request: HTTPRequest, segments: [String], token: ServerAPIToken) throws -> HTTPResponse {
        switch (request.method, segments.count, segments.count > 4 ? segments[4] : "") {
        case ("POST", 5, "history"): return try notificationHistory(request, token: token)
        case ("POST", 5, "test"): return try requestTestNotification(token: token)
        case ("GET", 6, "test"): return try testNotificationStatus(segments[5], token: token)
        default: throw AppStoreAPIError.notFound
        }
    }

    /// `POST /inApps/v1/notifications/history[?paginationToken=]`: the notifications recorded in the window,
    /// filtered, oldest first, 20 a page, each with its `signedPayload` as first sent and its `sendAttempts`.
    private func notificationHistory(_ request: HTTPRequest, token: ServerAPIToken) throws -> HTTPResponse {
        let sandbox = try sandboxDirectory.load(account: "", events: false)
        guard token.bundleId == sandbox.bundleId else { throw AppStoreAPIError.invalidAppIdentifier }
        let query = try NotificationHistoryQuery(request, now: sandbox.now, production: sandbox.environment == .production)
        var account: String?
        if let id = query.transactionId {
            guard let owner = try store.account(ofTransaction: id) else {
                throw AppStoreAPIError.transactionIdNotFound
            }
            account = owner
        }
        let matching = try sandboxDirectory.notifications().filter { notification in
            query.matches(notification) && (account == nil || notification.account == account)
        }
        guard query.offset <= matching.count else { throw AppStoreAPIError.invalidPaginationToken }
        let page = matching.dropFirst(query.offset).prefix(Self.notificationPageSize)
        let next = query.offset + page.count
        var object: [String: Any] = ["notificationHistory": page.map(Self.historyItem), "hasMore": next < matching.count]
        if next < matching.count { object["paginationToken"] = NotificationHistoryQuery.token(offset: next) }
        return try Self.json(object)
    }

    /// `POST /inApps/v1/notifications/test`: records a TEST notification for the sender, answers its token;
    /// 404 `4040007` while no notification URL is set.
    private func requestTestNotification(token: ServerAPIToken) throws -> HTTPResponse {
        let sandbox = try sandboxDirectory.load(account: "", events: false)
        guard token.bundleId == sandbox.bundleId else { throw AppStoreAPIError.invalidAppIdentifier }
        guard sandbox.settings.notificationURL != nil else { throw AppStoreAPIError.serverNotificationURLNotFound }
        let test = try sandboxDirectory.requestTestNotification()
        return try Self.json(["testNotificationToken": test.testNotificationToken ?? ""])
    }

    /// `GET /inApps/v1/notifications/test/{testNotificationToken}`: the TEST notification and its attempts;
    /// 404 `4040008` until its first attempt is made, or for a token never given.
    private func testNotificationStatus(_ raw: String, token: ServerAPIToken) throws -> HTTPResponse {
        let sandbox = try sandboxDirectory.load(account: "", events: false)
        guard token.bundleId == sandbox.bundleId else { throw AppStoreAPIError.invalidAppIdentifier }
        guard let testToken = HTTPRequest.decodePathSegment(raw), !testToken.isEmpty, testToken.utf8.count <= 128 else {
            throw AppStoreAPIError.invalidTestNotificationToken
        }
        guard let test = try sandboxDirectory.testNotification(token: testToken), !test.sendAttempts.isEmpty else {
            throw AppStoreAPIError.testNotificationNotFound
        }
        return try Self.json(Self.historyItem(test))
    }

    /// `{signedPayload, sendAttempts: [{attemptDate (ms), sendAttemptResult}]}`.
    static func historyItem(_ notification: SandboxNotification) -> [String: Any] {
        ["signedPayload": notification.signedPayload,
         "sendAttempts": notification.sendAttempts.map { attempt -> [String: Any] in
             ["attemptDate": attempt.attemptDate.millisecondsSince1970,
              "sendAttemptResult": attempt.sendAttemptResult.rawValue]
         }]
    }
}
