import Foundation
import WundercastPlaces

/// The real city table, written by the built `wundercast-cities` (from libgeonames) once per
/// test process into a temporary file, without `make`. The binary is found next to the test
/// bundle (``Binaries``; `swift build` builds it with the tests).
public enum RealCityTable {
    public struct Generated: Sendable {
        /// The table file.
        public var path: String
        /// Its bytes.
        public var bytes: [UInt8]
        /// Seconds `wundercast-cities` took to write it.
        public var generationSeconds: Double
    }

    private static let generated = Task<Generated, any Error> {
        let tool = try Binaries.path("wundercast-cities")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-cities-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("cities.tsv").path
        let start = ContinuousClock.now
        let result = try await runProcess(tool, ["--output", path])
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        guard result.status == 0 else {
            throw Binaries.Missing(description: "wundercast-cities exited \(result.status): \(result.stderr)")
        }
        return Generated(
            path: path, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), generationSeconds: seconds)
    }

    /// The image (`cities.bin`, as `make` writes it), converted from the text file by
    /// `wundercast-cities --image --from`.
    private static let imageFile = Task<Generated, any Error> {
        let text = try await generated.value
        let path = String(text.path.dropLast("tsv".count)) + "bin"
        let start = ContinuousClock.now
        let result = try await runProcess(
            try Binaries.path("wundercast-cities"), ["--image", "--from", text.path, "--output", path])
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        guard result.status == 0 else {
            throw Binaries.Missing(description: "wundercast-cities --image exited \(result.status): \(result.stderr)")
        }
        return Generated(
            path: path, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), generationSeconds: seconds)
    }

    private static let parsed = Task<CityTable, any Error> { try CityTable(parsing: try await generated.value.bytes) }

    /// The generated text file (made on first use).
    public static func file() async throws -> Generated {
        try await generated.value
    }

    /// The generated image, the daemon's `cities.bin` (made on first use).
    public static func image() async throws -> Generated {
        try await imageFile.value
    }

    /// The parsed table (parsed once per test process).
    public static func table() async throws -> CityTable {
        try await parsed.value
    }

    /// libgeonames' own answer for `name` (`geonames_query_cities_sync` through
    /// `wundercast-cities --query`), best first.
    public static func libgeonamesQuery(_ name: String) async throws -> [City] {
        let result = try await runProcess(try Binaries.path("wundercast-cities"), ["--query", name])
        guard result.status == 0 else {
            throw Binaries.Missing(description: "wundercast-cities --query exited \(result.status): \(result.stderr)")
        }
        return try result.stdout.split(separator: "\n").map { line in
            try CityTable(parsing: Array((CityTableFormat.header(libraryVersion: "test") + "\n" + line).utf8)).city(
                at: 0)
        }
    }
}
