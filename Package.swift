// swift-tools-version:6.1
import PackageDescription

/// A dependency of the server only. An app that adds this package for OpenMarketKit turns the
/// `Server` trait off (`traits: []`), and then resolves none of these packages.
func server(_ product: String, _ package: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: ["Server"]))
}

let package = Package(
    name: "openmarket",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "openmarket", targets: ["openmarket"]),
        .library(name: "MarketModel", targets: ["MarketModel"]),
        .library(name: "OpenMarketKit", targets: ["OpenMarketKit"]),
    ],
    traits: [
        .trait(name: "Server", description: "The market's server, its command and their tests (on by default)."),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        // `swift package generate-documentation --target OpenMarketKit`; no target uses it, so an app
        // that adds the package never resolves it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "MarketModel"),
        .target(
            name: "MarketCore",
            dependencies: [
                "MarketModel",
                server("HummingbirdBcrypt", "hummingbird-auth"),
                server("Crypto", "swift-crypto"),
                server("Metrics", "swift-metrics"),
            ]
        ),
        .target(
            name: "MarketSQLite",
            dependencies: ["MarketCore", "CSQLiteSettings", server("GRDB", "GRDB.swift")]
        ),
        // SQLite's process-wide settings, which GRDB leaves to the app (Debian's libsqlite3-dev).
        .target(name: "CSQLiteSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "MarketPostgres",
            dependencies: [
                "MarketCore",
                server("PostgresNIO", "postgres-nio"),
                server("NIOSSL", "swift-nio-ssl"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
                server("Logging", "swift-log"),
                server("Metrics", "swift-metrics"),
            ],
            resources: [.copy("Migrations")]
        ),
        // libvips through a small C bridge: Swift cannot call its variadic functions. On macOS,
        // pkg-config finds Homebrew's. On Linux its headers need only GLib's include folders,
        // named here: pkg-config would hand SwiftPM glib's -pthread, which it refuses with a
        // warning in every build (Debian's libvips-dev).
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.brew(["vips", "pkgconf"])]),
        .target(
            name: "CVipsBridge",
            dependencies: [.target(name: "CVips", condition: .when(platforms: [.macOS]))],
            cSettings: [
                .unsafeFlags(
                    [
                        "-I/usr/include/glib-2.0", "-I/usr/lib/x86_64-linux-gnu/glib-2.0/include",
                        "-I/usr/lib/aarch64-linux-gnu/glib-2.0/include",
                    ], .when(platforms: [.linux]))
            ],
            linkerSettings: [
                .linkedLibrary("vips", .when(platforms: [.linux])),
                .linkedLibrary("gobject-2.0", .when(platforms: [.linux])),
                .linkedLibrary("glib-2.0", .when(platforms: [.linux])),
                // Our vips_semaphore_down_timeout (bridge.c) must be seen by libvips ahead of its own.
                .unsafeFlags(
                    ["-Xlinker", "--export-dynamic-symbol=vips_semaphore_down_timeout"], .when(platforms: [.linux])),
            ]
        ),
        .target(name: "MarketImaging", dependencies: ["MarketCore", "CVipsBridge"]),
        // What the process sets before anything else runs: a crash report with every frame of the
        // crashed thread (Swift's own backtracer stops at C frames) and the allocator's settings.
        .target(name: "CProcess"),
        .target(name: "OpenMarketKit", dependencies: ["MarketModel"]),
        .target(name: "MarketDemo", dependencies: ["MarketCore", "MarketImaging"]),
        // The HTTP adapters: what they all use, one module per wire format, and the server that
        // mounts them on one router.
        .target(
            name: "MarketHTTPShared",
            dependencies: [
                "MarketCore",
                server("Hummingbird", "hummingbird"),
                server("HummingbirdCore", "hummingbird"),
                server("HTTPTypes", "swift-http-types"),
                server("Logging", "swift-log"),
                server("NIOCore", "swift-nio"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/placeholder.png")]
        ),
        .target(name: "MarketAPIv1", dependencies: ["MarketHTTPShared", server("Hummingbird", "hummingbird")]),
        .target(name: "MarketAPIv2", dependencies: ["MarketHTTPShared", server("Hummingbird", "hummingbird")]),
        // What every module that serves pages shares: templates, phrases, cookies, browser sessions.
        .target(
            name: "MarketPages",
            dependencies: [
                "MarketHTTPShared",
                server("Hummingbird", "hummingbird"),
                server("Crypto", "swift-crypto"),
                server("Mustache", "swift-mustache"),
            ],
            resources: [.copy("Resources/pages")]
        ),
        .target(
            name: "MarketInspector",
            dependencies: [
                "MarketPages", server("Hummingbird", "hummingbird"), server("NIOCore", "swift-nio"),
                server("Mustache", "swift-mustache"), server("ServiceLifecycle", "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/inspector")]
        ),
        .target(
            name: "MarketStorefront",
            dependencies: [
                "MarketPages",
                server("Hummingbird", "hummingbird"),
            ],
            resources: [.copy("Resources/storefront")]
        ),
        .target(
            name: "MarketHTTP",
            dependencies: [
                "MarketHTTPShared", "MarketAPIv1", "MarketAPIv2", "MarketInspector", "MarketPages", "MarketStorefront",
                server("Hummingbird", "hummingbird"),
                server("CompressNIO", "compress-nio"),
                server("HummingbirdCore", "hummingbird"),
                server("NIOCore", "swift-nio"),
                server("NIOHTTP1", "swift-nio"),
                server("NIOHTTPTypes", "swift-nio-extras"),
                server("NIOHTTPTypesHTTP1", "swift-nio-extras"),
                server("Metrics", "swift-metrics"),
                server("Prometheus", "swift-prometheus"),
            ],
            resources: [.copy("Resources/openapi.json")]
        ),
        .target(
            name: "MarketApp",
            dependencies: [
                "MarketHTTP", "MarketHTTPShared", "MarketAPIv2", "MarketSQLite", "MarketPostgres",
                "MarketImaging", "MarketDemo", "MarketPages",
                server("Logging", "swift-log"),
                server("NIOPosix", "swift-nio"),
                server("Metrics", "swift-metrics"),
                server("Prometheus", "swift-prometheus"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "openmarket",
            dependencies: [
                "MarketApp", "MarketHTTPShared", "OpenMarketKit", "CProcess",
                server("ArgumentParser", "swift-argument-parser"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "MarketModelTests", dependencies: ["MarketModel"]),
        .testTarget(name: "MarketImagingTests", dependencies: ["MarketTestSupport"]),
        .testTarget(name: "MarketStoreTests", dependencies: ["MarketSQLite", "MarketTestSupport"]),
        .target(
            name: "MarketTestSupport",
            dependencies: [
                "MarketApp",
                server("ServiceLifecycle", "swift-service-lifecycle"),
                server("PostgresNIO", "postgres-nio"),
                server("HummingbirdTesting", "hummingbird"),
                server("NIOConcurrencyHelpers", "swift-nio"),
            ],
            path: "Tests/MarketTestSupport",
            resources: [.copy("Resources/photo.heic"), .copy("Resources/vips-faults.c")]
        ),
        .testTarget(name: "MarketCoreTests", dependencies: ["MarketTestSupport"]),
        .testTarget(name: "MarketHTTPTests", dependencies: ["MarketTestSupport"]),
        .testTarget(name: "OpenMarketCommandTests", dependencies: ["MarketTestSupport"]),
        .testTarget(name: "OpenMarketKitTests", dependencies: ["OpenMarketKit", "MarketTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
