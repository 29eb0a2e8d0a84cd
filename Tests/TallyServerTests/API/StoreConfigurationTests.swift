import Foundation
import Testing
@testable import TallyServer

@Suite("tally-server.json: store")
struct StoreConfigurationTests {
    private func load(_ store: String?, environment: [String: String] = [:]) throws
        -> Result<ServerConfiguration, ServerConfigurationError>
    {
        let member = store.map { #","store":\#($0)"# } ?? ""
        let json = """
            {"storekit":"Market.storekit","appConfiguration":"tally.json","verification":{"appAppleId":42},
             "keys":[{"name":"app","role":"public","sha256":"\(ConfigurationTests.hash)"}]\(member)}
            """
        return Result { () throws(ServerConfigurationError) in
            try ServerConfiguration(jsonData: Data(json.utf8), fileName: "tally-server.json",
                                    directory: ServerFixture.marketDirectory, environment: environment)
        }
    }

    private func problems(_ result: Result<ServerConfiguration, ServerConfigurationError>) -> [String] {
        guard case .failure(let error) = result else { return [] }
        return error.problems.map(\.description)
    }

    @Test func sqliteIsTheDefaultWithTheCacheOn() throws {
        let store = try load(nil).get().store
        #expect(store == StoreSettings(kind: .sqlite, cacheSeconds: 300))
    }

    @Test func postgresTakesAURLAndAPoolSizeWithTheCacheOff() throws {
        let store = try load(#"{"kind":"postgres","url":"postgresql://tally@db/tally","poolSize":3}"#).get().store
        #expect(store.kind == .postgres(url: "postgresql://tally@db/tally", poolSize: 3))
        #expect(store.cacheSeconds == 0, "another server's writes would not invalidate this server's cache")
        let defaults = try load(#"{"kind":"postgres","url":"postgresql:///tally","cacheSeconds":5}"#).get().store
        #expect(defaults == StoreSettings(kind: .postgres(url: "postgresql:///tally", poolSize: 8), cacheSeconds: 5))
    }

    @Test func theURLMayComeFromANamedEnvironmentVariable() throws {
        let store = try load(#"{"kind":"postgres","urlEnv":"TALLY_DATABASE_URL"}"#,
                             environment: ["TALLY_DATABASE_URL": "postgresql://u:secret@db/tally"]).get().store
        #expect(store.kind == .postgres(url: "postgresql://u:secret@db/tally", poolSize: 8))
        #expect(problems(try load(#"{"kind":"postgres","urlEnv":"TALLY_DATABASE_URL"}"#))
                == ["store.urlEnv: names the environment variable TALLY_DATABASE_URL, which is not set"])
    }

    @Test func mistakesAreNamedByPath() throws {
        #expect(problems(try load(#"{"kind":"postgres"}"#)).first?.hasPrefix("store: \"kind\": \"postgres\" needs") == true)
        #expect(problems(try load(#"{"kind":"postgres","url":"postgresql:///a","urlEnv":"X"}"#))
                == ["store: give \"url\" or \"urlEnv\", not both"])
        #expect(problems(try load(#"{"kind":"postgres","url":"mysql://db"}"#)) == ["store.url: must be a postgresql:// URL"])
        #expect(problems(try load(#"{"kind":"mongo"}"#)) == [#"store.kind: must be "sqlite" or "postgres", not "mongo""#])
        #expect(problems(try load(#"{"kind":"sqlite","poolSize":4}"#))
                == [#"store.poolSize: applies to "kind": "postgres" only"#])
        #expect(problems(try load(#"{"kind":"postgres","url":"postgresql:///a","poolSize":0}"#))
                == ["store.poolSize: must be a whole number from 1 to 1000"])
        #expect(problems(try load(#"{"kind":"sqlite","cacheSeconds":301}"#))
                == ["store.cacheSeconds: must be a whole number from 0 to 300"])
        #expect(problems(try load(#"{"kind":"sqlite","password":"x"}"#)).first?.hasPrefix("store.password: is not a known key") == true)
    }

    @Test func replicasAreReadWithTheirLagBound() throws {
        let store = try load(#"{"kind":"postgres","url":"postgresql://db1/tally","replicas":["postgresql://db2/tally","postgres://db3/tally"],"maxReplicaLagSeconds":2.5}"#).get().store
        #expect(store.replicas == ["postgresql://db2/tally", "postgres://db3/tally"])
        #expect(store.maxReplicaLagSeconds == 2.5)
        #expect(store.cacheSeconds == 0)
        let defaults = try load(#"{"kind":"postgres","url":"postgresql://db1/tally"}"#).get().store
        #expect(defaults.replicas.isEmpty)
        #expect(defaults.maxReplicaLagSeconds == StoreSettings.defaultMaxReplicaLagSeconds)
    }

    @Test func replicaMistakesAreNamedByPath() throws {
        let primary = #""kind":"postgres","url":"postgresql://db1/tally""#
        #expect(problems(try load(#"{"kind":"sqlite","replicas":["postgresql://db2/t"]}"#))
                == [#"store.replicas: applies to "kind": "postgres" only"#])
        #expect(problems(try load(#"{\#(primary),"replicas":"postgresql://db2/t"}"#)) == ["store.replicas: must be an array, not a string"])
        #expect(problems(try load(#"{\#(primary),"replicas":["mysql://db2/t"]}"#)) == ["store.replicas[0]: must be a postgresql:// URL"])
        #expect(problems(try load(#"{\#(primary),"replicas":["postgresql://db1/tally"]}"#))
                == ["store.replicas[0]: is the primary's URL (store.url); a replica is another server"])
        #expect(problems(try load(#"{\#(primary),"replicas":["postgresql://db2/t","postgresql://db2/t"]}"#))
                == ["store.replicas[1]: lists the same replica twice"])
        #expect(problems(try load(#"{\#(primary),"replicas":[""]}"#)) == ["store.replicas[0]: is empty"])
        #expect(problems(try load(#"{\#(primary),"replicas":["postgresql://db2/t"],"cacheSeconds":5}"#)).first?
                .hasPrefix("store.cacheSeconds: must be 0 with store.replicas") == true,
                "a cached state could be older than another server's write a Tally-Read-After names")
        #expect(problems(try load(#"{\#(primary),"maxReplicaLagSeconds":0}"#)) == ["store.maxReplicaLagSeconds: must be a number above 0"])
        #expect(problems(try load(#"{\#(primary),"maxReplicaLagSeconds":3601}"#)) == ["store.maxReplicaLagSeconds: must be at most 3600"])
        let many = (0...StoreSettings.maximumReplicas).map { #""postgresql://r\#($0)/t""# }.joined(separator: ",")
        #expect(problems(try load(#"{\#(primary),"replicas":[\#(many)]}"#))
                == ["store.replicas: lists \(StoreSettings.maximumReplicas + 1) replicas; at most \(StoreSettings.maximumReplicas)"])
    }
}
