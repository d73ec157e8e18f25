import Foundation
import Testing
import WundercastConfiguration
import WundercastServer

/// `etc/wundercast.conf` of this checkout, found from this file's path.
private let samplePath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // WundercastPOSIXTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // checkout
    .appendingPathComponent("etc/wundercast.conf").path

/// `Configuration.load(path:)`: the file read (WundercastPOSIX) around Core's text parser.
@Suite struct ConfigurationLoadingTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("wundercast-config-test-\(UInt64.random(in: 0...UInt64.max)).conf").path
    }

    @Test func sampleLoadsToDefaults() throws {
        #expect(try Configuration.load(path: samplePath) == Configuration())
    }

    @Test func loadMissingFile() {
        let path = "/nonexistent/wundercast-\(UInt64.random(in: 0...UInt64.max)).conf"
        #expect(throws: ConfigurationError(file: path, line: 0, message: "cannot read: No such file or directory")) {
            try Configuration.load(path: path)
        }
    }

    @Test func loadDirectory() {
        #expect(throws: ConfigurationError(file: "/", line: 0, message: "cannot read: Is a directory")) {
            try Configuration.load(path: "/")
        }
    }

    @Test func loadReportsPathAndLine() throws {
        let path = temporaryPath()
        try "[Weather]\nUnits=metric\nUnits=si\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: ConfigurationError(file: path, line: 3, message: "Units=\"si\" is not one of: metric, imperial")
        ) {
            try Configuration.load(path: path)
        }
    }

    @Test func loadRejectsInvalidUTF8() throws {
        let path = temporaryPath()
        try Data([0x5B, 0xFF, 0xFE, 0x5D]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: ConfigurationError(file: path, line: 1, message: "is not valid UTF-8 text (byte 0xFF at column 2)")
        ) {
            try Configuration.load(path: path)
        }
    }

    @Test func loadRejectsLargeFile() throws {
        let path = temporaryPath()
        try Data(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ConfigurationError(file: path, line: 0, message: "cannot read: larger than 1048576 bytes")) {
            try Configuration.load(path: path)
        }
    }
}
