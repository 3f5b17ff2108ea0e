// swift-tools-version:6.1
import PackageDescription

// Hummingbird's own floor, for bench/run: one route and no middleware, answering the bytes of one
// scenario's response, as the smallest Hummingbird application would.
let package = Package(
    name: "floor",
    platforms: [.macOS(.v14)],
    dependencies: [.package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1")],
    targets: [.executableTarget(name: "floor", dependencies: [.product(name: "Hummingbird", package: "hummingbird")])],
    swiftLanguageModes: [.v6]
)
