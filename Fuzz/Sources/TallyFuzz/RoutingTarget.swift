import Foundation
import TallyHTTP
@testable import TallyServer

/// What a request line and its headers go through before any key is checked: the path router, path and
/// query percent-decoding, the bearer token, and the history cursor. The input is one text.
enum RoutingTarget {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        checkRouter(text)
        checkPercentDecoding(text)
        checkBearer(text)
        checkCursor(text)
    }

    /// A matched path names a route with a non-empty `appUserId` within the limit; re-encoding its
    /// parameters gives a path that matches the same way.
    static func checkRouter(_ path: String) {
        guard let match = try? Router.match(path) else { return }
        switch match.route {
        case .healthz, .readyz, .metrics, .appleNotifications, .dashboardOverview, .dashboardCustomers,
             .dashboardTransactions, .dashboardNotifications, .dashboardCatalog, .dashboardFile, .offerings,
             .offeringsUpdate, .offeringsDocument, .offeringsHistory, .offeringsRollback, .dashboardIdentity,
             .dashboardOffers, .dashboardWebhooks, .dashboardWebhookRetry, .promotionalOfferSignature,
             .introductoryOfferEligibility, .openAPI:
            require(match.appUserId.isEmpty && match.currency.isEmpty, "\(match.route) has an appUserId or a currency")
            return
        case .spend:
            require(!match.currency.isEmpty, "spend without a currency")
        case .customer, .transactions, .receipts, .history, .reconcile, .accountToken, .aliases, .attributes:
            require(match.currency.isEmpty, "\(match.route) has a currency")
        }
        require(!match.appUserId.isEmpty && match.appUserId.utf8.count <= Router.maxAppUserIdBytes,
                "appUserId of \(match.appUserId.utf8.count) bytes accepted")
        let rebuilt = match.route.rawValue
            .replacingOccurrences(of: "{appUserId}", with: percentEncoded(match.appUserId))
            .replacingOccurrences(of: "{currency}", with: percentEncoded(match.currency))
        let again = try? Router.match(rebuilt)
        require(again?.route == match.route && again?.appUserId == match.appUserId
                    && again?.currency == match.currency, "re-encoded path \(rebuilt) routes differently")
    }

    /// Text without `%` decodes to itself; whatever decodes survives encoding and decoding again.
    static func checkPercentDecoding(_ text: String) {
        let segment = HTTPRequest.decodePathSegment(text)
        let component = HTTPRequest.decodeQueryComponent(text)
        if !text.utf8.contains(UInt8(ascii: "%")) {
            // Byte for byte: every `+` byte is a space in a query, also one a combining mark follows (Foundation's
            // `replacingOccurrences` matches whole Characters and would keep `+\u{349}`).
            let spaced = String(decoding: text.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            require(segment.map { $0.utf8.elementsEqual(text.utf8) } == true, "a segment without escapes changed")
            require(component.utf8.elementsEqual(spaced.utf8), "a query without escapes changed")
        }
        if let segment {
            require(HTTPRequest.decodePathSegment(percentEncoded(segment)) == segment, "path round trip")
            require(HTTPRequest.decodeQueryComponent(percentEncoded(segment)) == segment, "query round trip")
        }
    }

    /// A token is non-empty, not padded with blanks, and reads back from `Bearer <token>`.
    static func checkBearer(_ value: String) {
        guard let token = HTTPRequest.bearerToken(fromAuthorization: value) else { return }
        let blanks: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t")]
        guard let first = token.utf8.first, let last = token.utf8.last else { return require(false, "empty token") }
        require(!blanks.contains(first) && !blanks.contains(last), "padded bearer token")
        require(HTTPRequest.bearerToken(fromAuthorization: "Bearer \(token)") == token, "bearer round trip")
    }

    /// A cursor that decodes encodes back to the same position.
    static func checkCursor(_ text: String) {
        guard let cursor = HistoryCursor(text) else { return }
        require(HistoryCursor(cursor.text) == cursor, "cursor round trip")
    }

    /// Every byte outside the unreserved set as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return output
    }
}

extension String {
    /// Zero-padded on the left to `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
