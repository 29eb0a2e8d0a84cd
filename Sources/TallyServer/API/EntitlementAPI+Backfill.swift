import Foundation
import TallyAppStoreAPI
import TallyCore
import TallyStorage

/// What a back-fill did so far.
public struct BackfillProgress: Sendable, Hashable {
    /// Notification history pages read.
    public var pages = 0
    /// Notifications on them.
    public var notifications = 0
    /// Applied to a customer now.
    public var applied = 0
    /// Already stored (delivered live, or an earlier back-fill): nothing changed.
    public var duplicates = 0
    /// Stored and waiting for an owner, recorded (TEST and the like), or older than what was stored.
    public var other = 0
}

extension EntitlementAPI {
    /// Pulls Get Notification History from where the last back-fill stopped (never before `since`, nor before
    /// what Apple's history keeps: 180 days in Production, 30 in the Sandbox) to now and
    /// applies every notification through the same path as live ones (`ingestNotification(_:)`), storing the
    /// cursor after each page, so it can be stopped and resumed without loss or double effect. `progress` is
    /// called after each page.
    public func backfill(since: Date, progress: (BackfillProgress) -> Void = { _ in }) throws(ReconcileError)
        -> BackfillProgress
    {
        guard let settings = configuration.appStoreServerAPI else { throw .notConfigured }
        let client = settings.client(bundleId: configuration.verification.bundleId)
        let stored: BackfillCursor?
        do { stored = try store.backfillCursor() } catch { throw .store(error) }
        // Apple's history reaches back only so far (a minute's margin for the clocks): an older `since` is clamped.
        let earliest = clock.now().addingTimeInterval(-Double(settings.environment.notificationHistoryDays) * 86_400 + 60)
        var cursor = BackfillCursor(start: max(since, earliest), paginationToken: nil)
        if let stored, stored.start >= cursor.start { cursor = stored }
        // Whole milliseconds, as the API takes them: a window must not be empty.
        let end = Date(millisecondsSince1970: clock.now().millisecondsSince1970)
        var done = BackfillProgress()
        while cursor.start.millisecondsSince1970 < end.millisecondsSince1970 {
            let page: AppStoreAPIClient.NotificationHistoryPage
            do {
                page = try client.notificationHistory(from: cursor.start, to: end, paginationToken: cursor.paginationToken)
            } catch {
                throw .appStore(error)
            }
            done.pages += 1
            for item in page.notificationHistory {
                done.notifications += 1
                let outcome: NotificationOutcome
                do {
                    outcome = try ingestNotification(item.signedPayload).1
                } catch {
                    if error.code == "unavailable" { throw .store(CustomerStoreError(.unavailable, error.message)) }
                    throw .verification("a notification from the App Store's history was refused: \(error.code) \(error.message)")
                }
                switch outcome.result {
                case .applied: done.applied += 1
                case .duplicate: done.duplicates += 1
                default: done.other += 1
                }
            }
            if page.hasMore, let token = page.paginationToken {
                cursor.paginationToken = token
            } else {
                cursor = BackfillCursor(start: end, paginationToken: nil)
            }
            do { try store.saveBackfillCursor(cursor) } catch { throw .store(error) }
            progress(done)
            if !page.hasMore { break }
        }
        return done
    }
}
