// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "openmarket",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "openmarket", targets: ["openmarket"]),
        .library(name: "MarketModel", targets: ["MarketModel"]),
        .library(name: "OpenMarketKit", targets: ["OpenMarketKit"]),
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
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        .target(name: "MarketModel"),
        .target(
            name: "MarketCore",
            dependencies: [
                "MarketModel",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "MarketSQLite",
            dependencies: ["MarketCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "MarketPostgres",
            dependencies: [
                "MarketCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        .target(name: "CVipsBridge", dependencies: ["CVips"]),
        .target(name: "MarketImaging", dependencies: ["MarketCore", "CVipsBridge"]),
        .target(name: "OpenMarketKit", dependencies: ["MarketModel"]),
        .target(name: "MarketDemo", dependencies: ["MarketCore", "MarketImaging"]),
        .target(
            name: "MarketHTTP",
            dependencies: [
                "MarketCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [
                .copy("Resources/placeholder.png"), .copy("Resources/storefront"), .copy("Resources/openapi.json"),
            ]
        ),
        .target(
            name: "MarketApp",
            dependencies: [
                "MarketHTTP", "MarketSQLite", "MarketPostgres", "MarketImaging", "MarketDemo",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "openmarket",
            dependencies: [
                "MarketApp", "OpenMarketKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "MarketModelTests", dependencies: ["MarketModel"]),
        .testTarget(name: "MarketImagingTests", dependencies: ["MarketTestSupport"]),
        .testTarget(name: "MarketStoreTests", dependencies: ["MarketTestSupport"]),
        .target(
            name: "MarketTestSupport",
            dependencies: [
                "MarketApp",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/MarketTestSupport"
        ),
        .testTarget(name: "MarketCoreTests", dependencies: ["MarketTestSupport"]),
        .testTarget(name: "MarketHTTPTests", dependencies: ["MarketTestSupport"]),
        .testTarget(name: "OpenMarketCommandTests", dependencies: ["MarketTestSupport"]),
        .testTarget(name: "OpenMarketKitTests", dependencies: ["OpenMarketKit", "MarketTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
