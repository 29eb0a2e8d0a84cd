import Testing
import TallyCore

@Suite("Anonymous customer ids and attribute bounds")
struct AnonymousCustomerIdTests {
    @Test func aMadeIdIsAnonymousUniqueAndOf128Bits() {
        var seen = Set<String>()
        for _ in 0..<1_000 {
            let id = AnonymousCustomerId.make()
            #expect(AnonymousCustomerId.isAnonymous(id), "\(id)")
            #expect(id.utf8.count == AnonymousCustomerId.prefix.utf8.count + 32)
            seen.insert(id)
        }
        #expect(seen.count == 1_000)
        var zeros = ZeroGenerator()
        #expect(AnonymousCustomerId.make(using: &zeros) == "$tally:anon:" + String(repeating: "0", count: 32),
                "leading zeros are kept: every id has 32 digits")
    }

    @Test func onlyTheExactFormIsAnonymous() {
        let good = "$tally:anon:" + String(repeating: "0123456789abcdef", count: 2)
        #expect(AnonymousCustomerId.isAnonymous(good))
        for bad in [good.uppercased(), String(good.dropLast()), good + "a", "$tally:anon:" + String(repeating: "g", count: 32),
                    "$Tally:anon:" + String(repeating: "0", count: 32), "alice", ""] {
            #expect(!AnonymousCustomerId.isAnonymous(bad), "\(bad)")
        }
    }

    @Test func attributesAreBoundedNamingTheKey() {
        #expect(CustomerAttributes.problem(key: "email", value: "a@b.c") == nil)
        #expect(CustomerAttributes.problem(key: String(repeating: "k", count: 64), value: String(repeating: "v", count: 4_096)) == nil)
        #expect(CustomerAttributes.problem(key: String(repeating: "k", count: 65), value: "v")?.contains("65 bytes") == true)
        #expect(CustomerAttributes.problem(key: "big", value: String(repeating: "v", count: 4_097))?.contains("'big'") == true)
        #expect(CustomerAttributes.problem(key: "", value: "v") != nil)
        #expect(CustomerAttributes.problem(key: "a\nb", value: "v") != nil)
        var current: [String: String] = [:]
        for index in 0..<100 { current["k\(index)"] = "v" }
        guard case .failure(let problem) = CustomerAttributes.merged(current, with: ["new": "v"]) else {
            Issue.record("a 101st key was admitted")
            return
        }
        #expect(problem.key == "new")
        #expect((try? CustomerAttributes.merged(current, with: ["new": "v", "k0": nil]).get())?.count == 100,
                "a deletion makes room in the same merge")
        let adopted = CustomerAttributes.adopting(["a": "1", "email": "anon@x"], into: ["email": "own@x"])
        #expect(adopted.attributes == ["a": "1", "email": "own@x"])
        #expect(adopted.added.map(\.key) == ["a"])
    }
}

private struct ZeroGenerator: RandomNumberGenerator {
    mutating func next() -> UInt64 { 0 }
}
