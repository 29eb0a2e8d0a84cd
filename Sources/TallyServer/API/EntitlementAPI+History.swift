import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// The page size when `limit` is not given, and the largest accepted.
    static let defaultHistoryLimit = 50, maximumHistoryLimit = 500

    /// `GET /v1/customers/{appUserId}/history?cursor=&limit=`: newest first, one page.
    func history(_ appUserId: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        var limit = Self.defaultHistoryLimit
        if let text = request.query["limit"], !text.isEmpty {
            guard let value = Int(text), (1...Self.maximumHistoryLimit).contains(value) else {
                throw .invalidRequest("limit must be a whole number from 1 to \(Self.maximumHistoryLimit)")
            }
            limit = value
        }
        var cursor: HistoryCursor?
        if let text = request.query["cursor"], !text.isEmpty {
            guard let decoded = HistoryCursor(text) else {
                throw .invalidRequest("cursor is not a nextCursor this server issued")
            }
            cursor = decoded
        }
        let now = clock.now()
        let (record, aliases) = try storeCall { () throws(CustomerStoreError) in
            (try store.customer(appUserId), try store.aliases(of: appUserId))
        }
        let items = HistoryItems.all(record, aliases: aliases, catalog: configuration.catalog,
                                     configuration: offerings.current().rules.configuration, now: now)
        let start = cursor.map { cursor in items.firstIndex { $0.follows(cursor) } ?? items.count } ?? 0
        let page = items[start..<min(items.count, start + limit)]
        let hasMore = start + page.count < items.count
        return APIResponse.json(JSONWriter.object { writer in
            writer.key("items")
            writer.beginArray()
            for item in page { writer.raw(item.json) }
            writer.endArray()
            writer.field("nextCursor", hasMore ? page.last.map { HistoryCursor(after: $0).text } : nil)
        })
    }
}
