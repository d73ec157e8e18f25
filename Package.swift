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
        .executable(name: "wundercast-cities", targets: ["wundercast-cities"]),
    ],
    targets: [
        // C boundaries: Debian's libraries through system-library targets.
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // libgeonames (GPL-3, GLib): only for the build-time tool wundercast-cities, never the daemon.
        .systemLibrary(name: "CGeonames", pkgConfig: "geonames", providers: [.apt(["libgeonames-dev"])]),
        // glibc's <sys/signalfd.h> (not in Swift's Glibc module); header only.
        .systemLibrary(name: "CSignalfd"),
        // glibc's <sys/epoll.h> and <sys/eventfd.h> (the socket server's event loop); header only.
        .systemLibrary(name: "CEpoll"),
        // glibc's <sys/timex.h> (adjtimex, asked read-only: is the clock synchronised); header only.
        .systemLibrary(name: "CTimex"),

        // Pure Swift: models, operators, pipeline, decoding, protocol, formats, configuration.
        // No system calls, sockets or files (libm only).
        .target(name: "WundercastCore"),

        // Sockets, files, signals, the environment: the one syscall wrapper and its users.
        .target(name: "WundercastPOSIX", dependencies: ["CSignalfd", "CEpoll", "CTimex"]),

        // Adapters.
        .target(name: "WundercastGPSD", dependencies: ["WundercastCore", "WundercastPOSIX", "CGPS"]),
        .target(name: "WundercastHTTP", dependencies: ["WundercastCore", "CCurl"]),
        .target(name: "WundercastSystemd", dependencies: ["WundercastCore", "WundercastPOSIX", "CSystemd"]),
        .target(
            name: "WundercastServer",
            dependencies: [
                "WundercastCore", "WundercastPOSIX", "WundercastGPSD", "WundercastHTTP", "WundercastSystemd",
            ]),

        // wundercastctl's argument parsing, connection and commands (tested without a process).
        .target(name: "WundercastCtl", dependencies: ["WundercastCore", "WundercastPOSIX"]),

        // Thin mains.
        .executableTarget(name: "wundercastd", dependencies: ["WundercastServer", "WundercastPOSIX"]),
        .executableTarget(name: "wundercastctl", dependencies: ["WundercastCtl"]),
        // Build-time tool: writes the city table (cities.tsv) from libgeonames.
        .executableTarget(
            name: "wundercast-cities", dependencies: ["WundercastCore", "WundercastPOSIX", "CGeonames"]),

        // The memory floor `make bench` compares the daemon with (not installed).
        .executableTarget(
            name: "wundercast-floor", dependencies: ["CGPS", "CCurl", "CSystemd"], path: "Tests/Tools/Floor"),

        // Tests.
        .target(
            name: "WundercastTestSupport", dependencies: ["WundercastCore", "WundercastPOSIX"],
            path: "Tests/WundercastTestSupport"),
        .testTarget(
            name: "WundercastCoreTests",
            dependencies: ["WundercastCore", "WundercastTestSupport"]),
        .testTarget(
            name: "WundercastPOSIXTests",
            dependencies: ["WundercastPOSIX", "WundercastCore", "WundercastServer", "WundercastTestSupport"]),
        .testTarget(
            name: "WundercastCtlTests",
            dependencies: ["WundercastCtl", "WundercastCore", "WundercastPOSIX", "WundercastTestSupport"]),
        .testTarget(
            name: "WundercastGPSDTests", dependencies: ["WundercastGPSD", "WundercastPOSIX", "WundercastTestSupport"]),
        .testTarget(name: "WundercastHTTPTests", dependencies: ["WundercastHTTP", "WundercastTestSupport"]),
        .testTarget(name: "WundercastSystemdTests", dependencies: ["WundercastSystemd", "WundercastTestSupport"]),
        .testTarget(
            name: "WundercastIntegrationTests",
            dependencies: [
                "WundercastCore", "WundercastPOSIX", "WundercastGPSD", "WundercastHTTP", "WundercastServer",
                "WundercastTestSupport",
            ]),
        // The fault suite (issue 14): real daemons under a faulty world (gpsd, providers, clients,
        // signals, broken files, clock steps, resource limits); run by `make faults`, skipped otherwise.
        .testTarget(
            name: "WundercastFaultTests",
            dependencies: ["WundercastCore", "WundercastPOSIX", "WundercastTestSupport"]),
        // The ready-to-paste bar snippets in etc/ run against a test daemon and inside the real bars
        // (i3blocks, waybar in a headless sway, polybar under Xvfb); man pages, completions, install.
        .testTarget(
            name: "WundercastBarTests",
            dependencies: ["WundercastCore", "WundercastTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (`make fuzz`, Tests/Fuzz/README.md): one executable a target, declared only
// when WUNDERCAST_FUZZ=1, so `swift build` never builds them. They have no main of their own (no
// main.swift: libFuzzer's runtime brings `main`) and are built in .build/fuzz with
// `--sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address` (the two `--sanitize`
// flags alone instrument nothing for coverage).
if Context.environment["WUNDERCAST_FUZZ"] == "1" {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("configuration", ["WundercastCore"]),
        ("request", ["WundercastCore"]),
        ("open-meteo", ["WundercastCore"]),
        ("openweathermap-current", ["WundercastCore"]),
        ("openweathermap-forecast", ["WundercastCore"]),
        ("metno", ["WundercastCore"]),
        ("gpsd-report", ["WundercastCore", "WundercastGPSD", "CGPS"]),
        ("city-image", ["WundercastCore"]),
        ("last-state", ["WundercastCore"]),
    ]
    package.targets += fuzzTargets.map { target in
        .executableTarget(
            name: "fuzz-\(target.name)", dependencies: target.dependencies, path: "Tests/Fuzz/Targets/\(target.name)")
    }
}
