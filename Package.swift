// swift-tools-version: 6.0
import PackageDescription

/// The daemon's logic: eight pure Swift libraries, lowest first (docs/ARCHITECTURE.md). The daemon
/// and the tests that run it whole depend on all of them.
let logic: [Target.Dependency] = [
    "WundercastSupport", "WundercastModel", "WundercastProviders", "WundercastConfiguration", "WundercastProtocol",
    "WundercastPlaces", "WundercastFormats", "WundercastPipeline", "WundercastFleet",
]

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
        // libmosquitto 2.0 (MQTT 5): the broker a fleet publishes into (issue 16).
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // libgeonames (GPL-3, GLib): only for the build-time tool wundercast-cities, never the daemon.
        .systemLibrary(name: "CGeonames", pkgConfig: "geonames", providers: [.apt(["libgeonames-dev"])]),
        // libnova (LGPL-2+; Debian ships no pkg-config file for it): the Moon's and the Sun's positions.
        .systemLibrary(name: "CNova", providers: [.apt(["libnova-dev"])]),
        // glibc's <sys/signalfd.h> (not in Swift's Glibc module); header only.
        .systemLibrary(name: "CSignalfd"),
        // glibc's <sys/epoll.h> and <sys/eventfd.h> (the socket server's event loop); header only.
        .systemLibrary(name: "CEpoll"),
        // glibc's <sys/timex.h> (adjtimex, asked read-only: is the clock synchronised); header only.
        .systemLibrary(name: "CTimex"),
        // glibc's <sys/prctl.h>: PR_SET_PDEATHSIG through a typed wrapper (prctl is variadic); header only.
        .systemLibrary(name: "CPrctl"),
        // glibc's gettext <libintl.h> (not in Swift's Glibc module) and the locale queries
        // (<locale.h>, <langinfo.h>) of wundercastctl's language and clock; header only.
        .systemLibrary(name: "CIntl"),

        // The daemon's logic in eight pure Swift modules, one concern each (docs/ARCHITECTURE.md): no
        // system calls, sockets or files (libm only); each may import only what it depends on here.
        // Logging, journal message ids, untrusted text, secrets, time spans, JSON values: what every layer uses.
        .target(name: "WundercastSupport"),
        // The domain's values: coordinates, fixes and positions, weather and its state, forecast,
        // conditions, units, sun and time zones, errors and back-off.
        .target(name: "WundercastModel", dependencies: ["WundercastSupport"]),
        // Weather providers: their protocols, Open-Meteo, OpenWeatherMap, MET Norway, the decoding
        // they share, the HTTP client they ask through (conditional, redacting).
        .target(name: "WundercastProviders", dependencies: ["WundercastSupport", "WundercastModel"]),
        // The configuration: its keys, the INI parser, defaults, the effective text, the rules between keys.
        .target(
            name: "WundercastConfiguration",
            dependencies: ["WundercastSupport", "WundercastModel", "WundercastProviders", "WundercastFleet"]),
        // The socket protocol: requests, responses, the state's views for public and precise readers.
        .target(name: "WundercastProtocol", dependencies: ["WundercastSupport", "WundercastModel"]),
        // Places: the city table (its file format, search, nearest city), names, online geocoding.
        .target(
            name: "WundercastPlaces", dependencies: ["WundercastSupport", "WundercastModel", "WundercastProviders"]),
        // What readers print: the human line, status and around, the status bars' formats, templates.
        .target(
            name: "WundercastFormats", dependencies: ["WundercastSupport", "WundercastModel", "WundercastProtocol"]),
        // The location and refresh pipeline: the location stream and its gate, the refresh state machine,
        // the weather service with its provider queue and cache, lookups, wake-ups, the state store and
        // what of it is kept across restarts; the async operators they run on.
        .target(
            name: "WundercastPipeline",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastProviders", "WundercastConfiguration",
                "WundercastProtocol", "WundercastPlaces", "WundercastFormats",
            ]),

        // MQTT payloads: topics, the retained state, device tracker location, Home Assistant discovery, OwnTracks.
        .target(
            name: "WundercastFleet", dependencies: ["WundercastSupport", "WundercastModel", "WundercastProtocol"]),

        // Sockets, files, signals, the environment: the one syscall wrapper and its users.
        .target(name: "WundercastPOSIX", dependencies: ["CSignalfd", "CEpoll", "CTimex", "CPrctl", "CIntl"]),

        // Adapters.
        .target(
            name: "WundercastGPSD",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastConfiguration", "WundercastPOSIX", "CGPS",
            ]),
        .target(
            name: "WundercastHTTP",
            dependencies: ["WundercastSupport", "WundercastModel", "WundercastProviders", "WundercastPOSIX", "CCurl"]),
        .target(name: "WundercastSystemd", dependencies: ["WundercastSupport", "WundercastPOSIX", "CSystemd"]),
        // The Moon's phase, illumination, rise and set for a place and day, from libnova's positions.
        .target(name: "WundercastAstronomy", dependencies: ["WundercastModel", "CNova"]),
        // The MQTT client (libmosquitto) on the reactor, with our reconnect and back-off.
        .target(
            name: "WundercastMQTT",
            dependencies: ["WundercastSupport", "WundercastModel", "WundercastPOSIX", "CMosquitto"]),
        .target(
            name: "WundercastServer",
            dependencies: logic + [
                "WundercastPOSIX", "WundercastGPSD", "WundercastHTTP", "WundercastSystemd", "WundercastMQTT",
                "WundercastAstronomy",
            ]),

        // wundercastctl's argument parsing, connection and commands (tested without a process).
        .target(
            name: "WundercastCtl",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastProtocol", "WundercastFormats", "WundercastPOSIX",
            ]),

        // Thin mains.
        .executableTarget(name: "wundercastd", dependencies: ["WundercastServer", "WundercastPOSIX"]),
        .executableTarget(name: "wundercastctl", dependencies: ["WundercastCtl"]),
        // Build-time tool: writes the city table (cities.tsv) from libgeonames.
        .executableTarget(
            name: "wundercast-cities",
            dependencies: ["WundercastModel", "WundercastPlaces", "WundercastPOSIX", "CGeonames"]),

        // The memory floor `make bench` compares the daemon with (not installed).
        .executableTarget(
            name: "wundercast-floor", dependencies: ["CGPS", "CCurl", "CSystemd"], path: "Tests/Tools/Floor"),

        // Tests.
        // zlib (zlib1g-dev, which libgeonames-dev's GLib headers need too): the in-process fixture
        // HTTP server gzips its bodies as the providers do. Test support only.
        .systemLibrary(name: "CZlib", path: "Tests/CZlib", pkgConfig: "zlib"),
        // glibc's <sys/pidfd.h>: tests wait for the end of a process that is not their child.
        .systemLibrary(name: "CPidfd", path: "Tests/CPidfd"),
        .target(
            name: "WundercastTestSupport",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastProviders", "WundercastProtocol", "WundercastPlaces",
                "WundercastPipeline", "WundercastPOSIX", "CZlib", "CPidfd",
            ],
            path: "Tests/WundercastTestSupport"),
        // The test support's own promises: every wait ends (deadline, cancellation), the
        // fixture HTTP server serves what the Python one does.
        .testTarget(
            name: "WundercastTestSupportTests",
            dependencies: [
                "WundercastTestSupport", "WundercastModel", "WundercastProviders", "WundercastPipeline",
                "WundercastHTTP",
            ]),
        .testTarget(
            name: "WundercastSupportTests",
            dependencies: ["WundercastSupport", "WundercastModel", "WundercastTestSupport"]),
        .testTarget(
            name: "WundercastModelTests",
            dependencies: [
                "WundercastModel", "WundercastProviders", "WundercastProtocol", "WundercastFormats",
                "WundercastPipeline", "WundercastTestSupport",
            ]),
        .testTarget(
            name: "WundercastProvidersTests",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastProviders", "WundercastProtocol",
                "WundercastFormats", "WundercastPipeline", "WundercastTestSupport",
            ]),
        .testTarget(
            name: "WundercastConfigurationTests",
            dependencies: ["WundercastSupport", "WundercastModel", "WundercastConfiguration", "WundercastTestSupport"]),
        .testTarget(
            name: "WundercastProtocolTests",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastProtocol", "WundercastFormats",
                "WundercastTestSupport",
            ]),
        .testTarget(
            name: "WundercastPlacesTests",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastProviders", "WundercastPlaces",
                "WundercastTestSupport",
            ]),
        .testTarget(
            name: "WundercastFormatsTests",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastProviders", "WundercastProtocol",
                "WundercastFormats", "WundercastTestSupport",
            ]),
        .testTarget(
            name: "WundercastPipelineTests", dependencies: logic + ["WundercastTestSupport"]),
        .testTarget(
            name: "WundercastFleetTests",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastProtocol", "WundercastFleet",
                "WundercastTestSupport",
            ]),
        .testTarget(
            name: "WundercastPOSIXTests",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastProviders", "WundercastConfiguration",
                "WundercastPlaces", "WundercastPipeline", "WundercastPOSIX", "WundercastServer",
                "WundercastTestSupport",
            ]),
        .testTarget(
            name: "WundercastCtlTests",
            dependencies: [
                "WundercastModel", "WundercastProtocol", "WundercastFormats", "WundercastCtl", "WundercastPOSIX",
                "WundercastTestSupport",
            ]),
        .testTarget(
            name: "WundercastGPSDTests",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastGPSD", "WundercastPOSIX", "WundercastTestSupport",
            ]),
        // The MQTT client against a real mosquitto broker.
        .testTarget(
            name: "WundercastMQTTTests",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastMQTT", "WundercastPOSIX", "WundercastTestSupport",
            ]),
        .testTarget(
            name: "WundercastHTTPTests",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastProviders", "WundercastPlaces", "WundercastPipeline",
                "WundercastHTTP", "WundercastPOSIX", "WundercastTestSupport",
            ]),
        // The Moon against the US Naval Observatory's tables (rise and set, phase instants) and JPL Horizons.
        .testTarget(
            name: "WundercastAstronomyTests",
            dependencies: ["WundercastModel", "WundercastAstronomy", "WundercastTestSupport"]),
        .testTarget(
            name: "WundercastSystemdTests",
            dependencies: ["WundercastSupport", "WundercastSystemd", "WundercastTestSupport"]),
        .testTarget(
            name: "WundercastIntegrationTests",
            dependencies: logic + [
                "WundercastPOSIX", "WundercastGPSD", "WundercastHTTP", "WundercastServer", "WundercastTestSupport",
            ]),
        // The fault suite (issue 14): real daemons under a faulty world (gpsd, providers, clients,
        // signals, broken files, clock steps, resource limits); run by `make faults`, skipped otherwise.
        .testTarget(
            name: "WundercastFaultTests",
            dependencies: ["WundercastPOSIX", "WundercastTestSupport"]),
        // The ready-to-paste bar snippets in etc/ run against a test daemon and inside the real bars
        // (i3blocks, waybar in a headless sway, polybar under Xvfb); man pages, completions, install.
        .testTarget(
            name: "WundercastBarTests",
            dependencies: [
                "WundercastSupport", "WundercastModel", "WundercastConfiguration", "WundercastProtocol",
                "WundercastFormats", "WundercastTestSupport",
            ]),
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
        ("configuration", ["WundercastConfiguration"]),
        ("request", ["WundercastProtocol"]),
        ("open-meteo", ["WundercastProviders"]),
        ("openweathermap-current", ["WundercastModel", "WundercastProviders"]),
        ("openweathermap-forecast", ["WundercastProviders"]),
        ("metno", ["WundercastModel", "WundercastProviders"]),
        ("gpsd-report", ["WundercastModel", "WundercastGPSD", "CGPS"]),
        ("city-image", ["WundercastModel", "WundercastPlaces"]),
        ("last-state", ["WundercastPipeline"]),
        ("alerts", ["WundercastModel", "WundercastProviders", "WundercastPipeline"]),
    ]
    package.targets += fuzzTargets.map { target in
        .executableTarget(
            name: "fuzz-\(target.name)", dependencies: target.dependencies, path: "Tests/Fuzz/Targets/\(target.name)")
    }
}
