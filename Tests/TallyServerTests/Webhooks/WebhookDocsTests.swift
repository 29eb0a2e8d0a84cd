import Foundation
import TallyCore
import Testing

/// docs/webhooks.md's examples are the server's events: each decodes as a `WebhookEvent` and encodes back to the
/// same JSON, field for field in the same order, and every type has one.
@Suite("docs/webhooks.md")
struct WebhookDocsTests {
    /// The doc's ```json blocks that are events (their `id` starts `evt_`), as written.
    static func examples() throws -> [String] {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        let text = try String(contentsOf: url.appendingPathComponent("docs/webhooks.md"), encoding: .utf8)
        return text.components(separatedBy: "```json\n").dropFirst()
            .compactMap { $0.components(separatedBy: "\n```").first }
            .filter { $0.contains("\"id\": \"evt_") }
    }

    /// `json` without the whitespace outside strings.
    static func compact(_ json: String) -> String {
        var out = "", inString = false, escaped = false
        for character in json {
            if inString {
                out.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
                out.append(character)
            } else if !character.isWhitespace {
                out.append(character)
            }
        }
        return out
    }

    @Test func everyExampleIsAnEventTheServerEncodesTheSameAndEveryTypeHasOne() throws {
        let examples = try Self.examples()
        var types = Set<WebhookEventType>()
        for example in examples {
            let event = try #require(WebhookEvent(json: Array(example.utf8)), "\(example)")
            #expect(String(decoding: event.json, as: UTF8.self) == Self.compact(example))
            types.insert(event.type)
        }
        #expect(types == Set(WebhookEventType.allCases), "missing: \(Set(WebhookEventType.allCases).subtracting(types))")
    }
}
