// swift-tools-version:6.0
import PackageDescription

/// The StoreKit stand-in (Tests/StoreKitStandIn, module `StoreKit`) as a dependency: on Linux only, where no real
/// StoreKit exists. On Apple platforms the target is not even declared (see the end of this file), so `import
/// StoreKit` there is always Apple's framework.
#if os(Linux)
let storeKitOnLinux: [Target.Dependency] = [.target(name: "StoreKit", condition: .when(platforms: [.linux]))]
/// The Combine stand-in (Tests/CombineStandIn) for `ObservableStoreModel`, on Linux only, like StoreKit's.
let combineOnLinux: [Target.Dependency] = [.target(name: "Combine", condition: .when(platforms: [.linux]))]
/// The SwiftUI stand-in (Tests/SwiftUIStandIn), on Linux only, like StoreKit's.
let swiftUIOnLinux: [Target.Dependency] = [.target(name: "SwiftUI", condition: .when(platforms: [.linux]))]
#else
let storeKitOnLinux: [Target.Dependency] = []
let combineOnLinux: [Target.Dependency] = []
let swiftUIOnLinux: [Target.Dependency] = []
#endif

let package = Package(
    name: "Tally",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TallyCore", targets: ["TallyCore"]),
        .library(name: "TallySandbox", targets: ["TallySandbox"]),
        .library(name: "TallyVerify", targets: ["TallyVerify"]),
        .library(name: "Tally", targets: ["Tally"]),
        .library(name: "TallySandboxBackend", targets: ["TallySandboxBackend"]),
        .library(name: "TallyStoreKit", targets: ["TallyStoreKit"]),
        .library(name: "TallyHTTP", targets: ["TallyHTTP"]),
        .library(name: "TallyServer", targets: ["TallyServer"]),
        .library(name: "TallyPostgres", targets: ["TallyPostgres"]),
        .library(name: "TallySandboxServer", targets: ["TallySandboxServer"]),
        .library(name: "TallyAppStoreAPI", targets: ["TallyAppStoreAPI"]),
        .executable(name: "tally", targets: ["tally"]),
        .executable(name: "tally-bench", targets: ["tally-bench"]),
    ],
    targets: [
        /// OpenSSL (libssl-dev / Homebrew openssl@3) for every cryptographic operation.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        /// GNU libmicrohttpd (libmicrohttpd-dev / Homebrew libmicrohttpd): the HTTP server under TallyHTTP.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        /// SQLite (libsqlite3-dev / the macOS SDK): TallyServer's default customer store and the sandbox's state.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        /// libpq (libpq-dev / Homebrew libpq): the PostgreSQL client under TallyPostgres.
        .systemLibrary(
            name: "CPostgreSQL",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        /// The model and the rules: pure values, no I/O.
        .target(name: "TallyCore"),
        /// OpenSSL wrappers shared by TallyVerify and TallySandbox: certificates, keys, ECDSA P-256,
        /// X.509 chains, certificate issuing, base64url, ES256 JWS signing.
        .target(name: "TallyCrypto", dependencies: ["COpenSSL"]),
        /// A simulated App Store driven by .storekit files.
        /// SQLite's statements, values and errors for the modules that keep SQLite files (the sandbox, the server).
        .target(name: "TallySQLite", dependencies: ["CSQLite"]),
        .target(name: "TallySandbox", dependencies: ["TallyCore", "TallyCrypto", "CSQLite", "TallySQLite"]),
        /// Verification of App Store signed data and receipts.
        .target(name: "TallyVerify", dependencies: ["TallyCore", "TallyCrypto", "COpenSSL"]),
        /// The engine apps import: products, purchases, restore, ownership and crash-safe delivery.
        .target(name: "Tally", dependencies: ["TallyCore"] + combineOnLinux),
        /// The engine's `StoreBackend` over a sandbox directory (the only place that knows both); it signs what it
    /// delivers with the sandbox's authority and verifies signed forms with TallyVerify.
        .target(name: "TallySandboxBackend", dependencies: ["Tally", "TallyCore", "TallySandbox", "TallyVerify"]),
        /// An HTTP/1.1 server over libmicrohttpd: complete requests in, responses out; knows nothing of Tally.
        .target(name: "TallyHTTP", dependencies: ["CMicroHTTPD"]),
        /// The App Store Server API played by a sandbox directory, over TallyHTTP.
        .target(name: "TallySandboxServer", dependencies: ["TallySandbox", "TallyCore", "TallyCrypto", "TallyHTTP"]),
        /// A client of Apple's App Store Server API (signed requests, Apple's retry rules), for the server.
        .target(name: "TallyAppStoreAPI", dependencies: ["TallyCrypto"]),
        /// The self-hosted entitlement server: the /v1 API over a `CustomerStore` (SQLite by default).
        .target(name: "TallyServer",
                dependencies: ["TallyCore", "TallyVerify", "TallyHTTP", "CSQLite", "TallySQLite", "TallyCrypto",
                               "TallyAppStoreAPI"],
                resources: [.copy("Dashboard/Web")]),
        /// `PostgresCustomerStore`: TallyServer's customer store on PostgreSQL over libpq, for many servers on one
        /// database (TallyServer itself does not link libpq; the CLI wires this store in).
        .target(name: "TallyPostgres", dependencies: ["TallyServer", "TallyCore", "CPostgreSQL"]),
        .executableTarget(
            name: "tally",
            dependencies: ["TallyCore", "TallySandbox", "TallyVerify", "Tally", "TallySandboxBackend", "TallyServer",
                           "TallyHTTP", "TallySandboxServer", "TallyCrypto", "TallyPostgres"]),
        .executableTarget(
            name: "tally-bench",
            dependencies: [
                "TallyCore", "TallySandbox", "TallyVerify", "Tally", "TallySandboxBackend", "TallyServer", "TallyHTTP",
                "CSQLite", "TallyCrypto", "TallySandboxServer", "TallyPostgres",
            ]),
        /// Buys through the engine over a sandbox directory and pauses at a named delivery step
        /// (`TALLY_DELIVERY_PAUSE`), so the crash tests can SIGKILL it there.
        .executableTarget(
            name: "tally-delivery-harness", dependencies: ["Tally", "TallyCore", "TallySandbox", "TallySandboxBackend"]),
        .testTarget(name: "TallyCoreTests", dependencies: ["TallyCore"]),
        .testTarget(name: "TallyTests", dependencies: ["Tally", "TallyCore"] + combineOnLinux),
        /// The engine's `StoreBackend` over Apple's StoreKit 2: the real framework on Apple platforms, the stand-in
        /// module `StoreKit` (Tests/StoreKitStandIn, declared below on Linux only) elsewhere. Verifies signed forms
        /// with TallyVerify against Apple's root.
        .target(name: "TallyStoreKit",
                dependencies: ["Tally", "TallyCore", "TallyVerify"] + storeKitOnLinux),
        /// App files importing `Tally`, `TallyStoreKit`, StoreKit and SwiftUI (on Linux their stand-ins) with Apple's
        /// names unqualified: they must compile and run.
        .testTarget(name: "TallyAppTests",
                    dependencies: ["Tally", "TallyStoreKit"] + storeKitOnLinux + swiftUIOnLinux),
        /// The Market app's screen model (Examples/MarketApp/MarketShop.swift) over the StoreKit backend; the SwiftUI
        /// file is type-checked by the Linux-only `MarketApp` target (end of this file).
        .target(name: "MarketAppModel", dependencies: ["Tally", "TallyStoreKit"], path: "Examples/MarketApp",
                exclude: ["MarketApp.swift", "README.md"]),
        /// One backend contract, run against the sandbox backend and (on Linux) the StoreKit backend over the
        /// scripted stand-in.
        .testTarget(name: "TallyBackendContractTests",
                    dependencies: ["Tally", "TallyCore", "TallySandbox", "TallySandboxBackend", "TallyStoreKit",
                                   "MarketAppModel", "TallyVerify"]
                        + storeKitOnLinux),
        .testTarget(
            name: "TallySandboxTests", dependencies: ["TallySandbox", "TallyCore"],
            exclude: ["Signing/verify_with_apple.py"]),
        /// Runs the built `tally` executable: the command line's contract (exit codes, JSON shapes).
        .testTarget(name: "TallyCLITests",
                    dependencies: ["tally", "tally-delivery-harness", "Tally", "TallyCore", "TallySandbox",
                                   "TallySandboxBackend"],
                    exclude: ["apple_api_client.py", "apple_api_more.py", "apple_notification_client.py",
                              "notification_receiver.py", "slow_proxy.py"]),
        .testTarget(name: "TallyHTTPTests", dependencies: ["TallyHTTP"]),
        /// Runs the built `tally serve` on loopback and talks HTTP to it: the server's contract end to end.
        .testTarget(
            name: "TallyServerProcessTests", dependencies: ["tally", "TallySandbox", "TallyCore", "TallyCrypto"],
            exclude: ["dashboard_browser.py"]),
        .testTarget(
            name: "TallyServerTests",
            dependencies: ["TallyServer", "TallyHTTP", "TallyCore", "TallySandbox", "TallyVerify", "CSQLite", "TallySQLite", "TallyCrypto",
                           "TallyPostgres"]),
        .testTarget(name: "TallyCryptoTests", dependencies: ["TallyCrypto"], exclude: ["apple_token.py"]),
        /// Runs the built `tally sandbox serve` and calls it with the client: retries, 429 and 5xx on a real socket.
        .testTarget(name: "TallyAppStoreAPITests", dependencies: ["TallyAppStoreAPI", "TallyCrypto", "tally"]),
        .testTarget(name: "TallyVerifyTests", dependencies: ["TallyVerify", "TallyCore"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

#if os(Linux)
/// Test support, Linux only: StoreKit 2's API as ../shared/docs/storekit2-api.md documents it, answering what tests
/// script (Tests/StoreKitStandIn/StoreKit.swift). Never declared where the real StoreKit exists, so it cannot
/// shadow it; not a product apps can link.
/// Its SwiftUI modifiers (`refundRequestSheet`, Apple's StoreKit-SwiftUI overlay) are declared over the SwiftUI stand-in.
package.targets.append(.target(name: "StoreKit", dependencies: ["SwiftUI"], path: "Tests/StoreKitStandIn"))
/// Test support, Linux only: Combine's `ObservableObject`, `@Published` and `ObservableObjectPublisher` as Apple
/// declares them, with a minimal working implementation (Tests/CombineStandIn/Combine.swift).
package.targets.append(.target(name: "Combine", path: "Tests/CombineStandIn"))
/// Test support, Linux only: the part of SwiftUI that the Market app and TallyAppTests use, with Apple's declarations;
/// views only type-check (Tests/SwiftUIStandIn/View.swift).
package.targets.append(.target(name: "SwiftUI", path: "Tests/SwiftUIStandIn"))
/// Examples/MarketApp/MarketApp.swift (the SwiftUI app) type-checked against the SwiftUI and StoreKit stand-ins; on
/// Apple platforms it is built by an Xcode app target instead (see its README).
package.targets.append(.executableTarget(name: "MarketApp", dependencies: ["MarketAppModel", "Tally", "SwiftUI", "StoreKit"],
                                         path: "Examples/MarketApp", sources: ["MarketApp.swift"]))
#endif
