import Foundation
import Testing
@testable import TallyServer

@Suite("tally-server.json: rate-limit keys, the element limit, key hashes listed once")
struct HardeningConfigurationTests {
    static let hash = String(repeating: "ab", count: 32)
    static let files = #""storekit":"Market.storekit","appConfiguration":"tally.json","verification":{"appAppleId":42}"#

    @Test("the new keys are read; their defaults are those of docs/server.md")
    func newKeys() throws {
        let (defaults, _) = try ConfigurationTests().load("""
            {\(Self.files),"keys":[{"name":"app","role":"public","sha256":"\(Self.hash)"}]}
            """)
        let limits = try defaults.get().limits
        #expect(limits.publicKeyRequestsPerSecond == 1_000 && limits.publicKeyBurst == 2_000)
        #expect(limits.unknownKeyRequestsPerSecond == 5 && limits.unknownKeyBurst == 20)
        #expect(limits.publicKeyPerAddressRequestsPerSecond == 100 && limits.publicKeyPerAddressBurst == 200)
        #expect(limits.maxJSONElements == 1_000)
        let (set, _) = try ConfigurationTests().load("""
            {\(Self.files),"keys":[{"name":"app","role":"public","sha256":"\(Self.hash)"}],
             "rateLimit":{"publicKeyRequestsPerSecond":50.5,"publicKeyBurst":60,"unknownKeyRequestsPerSecond":0.5,
                          "unknownKeyBurst":2,"publicKeyPerAddressRequestsPerSecond":7.5,"publicKeyPerAddressBurst":9},
             "limits":{"maxJSONElements":16}}
            """)
        let read = try set.get().limits
        #expect(read.publicKeyRequestsPerSecond == 50.5 && read.publicKeyBurst == 60)
        #expect(read.unknownKeyRequestsPerSecond == 0.5 && read.unknownKeyBurst == 2)
        #expect(read.publicKeyPerAddressRequestsPerSecond == 7.5 && read.publicKeyPerAddressBurst == 9)
        #expect(read.maxJSONElements == 16)
    }

    @Test("bad values and a key hash listed twice are problems at their JSON paths")
    func problems() throws {
        let (result, _) = try ConfigurationTests().load("""
            {\(Self.files),
             "keys":[{"name":"app","role":"public","sha256":"\(Self.hash)"},
                     {"name":"other","role":"public","sha256":"\(String(repeating: "cd", count: 32))"},
                     {"name":"backend","role":"secret","sha256":"\(Self.hash.uppercased())"}],
             "rateLimit":{"publicKeyRequestsPerSecond":0,"publicKeyBurst":0,"unknownKeyRequestsPerSecond":-1,
                          "unknownKeyBurst":"x","publicKeyPerAddressRequestsPerSecond":0,"publicKeyPerAddressBurst":0},
             "limits":{"maxJSONElements":0}}
            """)
        guard case .failure(let error) = result else {
            Issue.record("the configuration loaded")
            return
        }
        let paths = error.problems.map(\.path)
        #expect(Set(paths) == ["keys[2].sha256", "rateLimit.publicKeyRequestsPerSecond", "rateLimit.publicKeyBurst",
                               "rateLimit.unknownKeyRequestsPerSecond", "rateLimit.unknownKeyBurst",
                               "rateLimit.publicKeyPerAddressRequestsPerSecond", "rateLimit.publicKeyPerAddressBurst",
                               "limits.maxJSONElements"], "\(error.problems)")
        let duplicate = error.problems.first { $0.path == "keys[2].sha256" }
        #expect(duplicate?.message.contains("keys[0].sha256") == true, "\(String(describing: duplicate))")
    }
}
