// swift-tools-version: 6.0
import PackageDescription

/// Every Swift target is built in Swift 6 language mode (strict concurrency is part of it).
/// CI adds `-Xswiftc -warnings-as-errors` (see Makefile).
let package = Package(
    name: "wundercast",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "wundercastd", targets: ["wundercastd"]),
        .executable(name: "wundercastctl", targets: ["wundercastctl"]),
    ],
    targets: [
        // C boundaries: Debian's libraries through system-library targets.
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // Pure Swift: models, operators, pipeline, decoding, protocol, formats, configuration.
        .target(name: "WundercastCore"),

        // Adapters.
        .target(name: "WundercastGPSD", dependencies: ["WundercastCore", "CGPS"]),
        .target(name: "WundercastHTTP", dependencies: ["WundercastCore", "CCurl"]),
        .target(name: "WundercastSystemd", dependencies: ["WundercastCore", "CSystemd"]),
        .target(
            name: "WundercastServer",
            dependencies: ["WundercastCore", "WundercastGPSD", "WundercastHTTP", "WundercastSystemd"]),

        // Thin mains.
        .executableTarget(name: "wundercastd", dependencies: ["WundercastServer"]),
        .executableTarget(name: "wundercastctl", dependencies: ["WundercastCore"]),

        // Tests.
        .target(name: "WundercastTestSupport", dependencies: ["WundercastCore"], path: "Tests/WundercastTestSupport"),
        .testTarget(
            name: "WundercastCoreTests",
            dependencies: ["WundercastCore", "WundercastTestSupport"]),
        .testTarget(name: "WundercastGPSDTests", dependencies: ["WundercastGPSD", "WundercastTestSupport"]),
        .testTarget(name: "WundercastHTTPTests", dependencies: ["WundercastHTTP", "WundercastTestSupport"]),
        .testTarget(name: "WundercastSystemdTests", dependencies: ["WundercastSystemd", "WundercastTestSupport"]),
        .testTarget(
            name: "WundercastIntegrationTests",
            dependencies: [
                "WundercastCore", "WundercastGPSD", "WundercastHTTP", "WundercastServer", "WundercastTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
