import Foundation
import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `wundercastd --check-config` and start-up on a real process: the effective configuration
/// with the file:line of each value, or every error at once with exit status 1.
@Suite struct CheckConfigProcessTests {
    /// A directory with `wundercast.conf` and its `wundercast.conf.d/`.
    private struct Files {
        let root: URL
        var main: String { root.appendingPathComponent("wundercast.conf").path }
        var dropIns: String { main + ".d" }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "wundercast-check-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(
                atPath: root.path + "/wundercast.conf.d", withIntermediateDirectories: true)
        }

        func write(_ path: String, _ text: String) throws {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test func theEffectiveConfigurationNamesWhereEachValueCameFrom() async throws {
        let files = try Files()
        defer { files.remove() }
        try files.write(
            files.main,
            "[Location]\nGPSD=main.lan\n\n[Throttle]\nMinInterval=30s\n[Places]\nCities=\(files.root.path)/none.bin\n")
        try files.write(files.dropIns + "/20-late.conf", "[Location]\nGPSD=[::1]:3000\n")
        try files.write(files.dropIns + "/10-early.conf", "[Location]\n\nGPSD=early.lan\nFallback=Tromsø\n")
        let result = try await runProcess(try Binaries.path("wundercastd"), ["--check-config", "--config", files.main])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            Array(lines.prefix(4)) == [
                "# \(files.main)", "# \(files.dropIns)/10-early.conf", "# \(files.dropIns)/20-late.conf", "",
            ])
        #expect(lines.contains("GPSD=[::1]:3000  # \(files.dropIns)/20-late.conf:2"))
        #expect(lines.contains("Fallback=Tromsø  # \(files.dropIns)/10-early.conf:4"))
        #expect(lines.contains("MinInterval=30s  # \(files.main):5"))
        #expect(lines.contains("MaxAge=15min  # (default)"))
        #expect(lines.contains("[Socket]"))
        #expect(lines.contains("Path=/run/wundercast/wundercast.sock  # (default)"))
        #expect(
            result.stderr
                == "\(files.main):7: warning: Cities=\"\(files.root.path)/none.bin\" cannot be read: No such file or directory; the daemon runs without place names (make install installs the table)\nwundercastd: configuration OK\n"
        )
        // The values read back as the same configuration: checked again, the same values.
        let values = lines.filter { !$0.hasPrefix("#") }.map { $0.components(separatedBy: "  # ").first ?? "" }
        let again = files.root.appendingPathComponent("again.conf").path
        try files.write(again, values.joined(separator: "\n"))
        let second = try await runProcess(try Binaries.path("wundercastd"), ["--check-config", "--config", again])
        #expect(second.status == 0, "\(second.stderr)")
        let secondValues = second.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("#") }.map { $0.components(separatedBy: "  # ").first ?? "" }
        #expect(secondValues == values)
    }

    private static func expectedErrors(_ files: Files) -> [String] {
        [
            "\(files.main):2: GPSD=\"😀\" is not a host name, IPv4 address or [IPv6] address (examples: 127.0.0.1:2947, gpsd.lan, [::1]:2947)",
            "\(files.main):4: URL=\"http://[::1\" has no closing ] (example: https://api.example.org:8443/v1)",
            "\(files.dropIns)/10-fifo.conf: cannot read: not a regular file",
            "\(files.dropIns)/20-bad.conf:2: Path=\"/\" is the root directory, not a file",
            "\(files.dropIns)/20-bad.conf:4: Fallback=\"1e999,5\" has latitude 1e999, which is not a finite number of degrees in decimal notation (no nan, inf or exponent; example: 48.8566,2.3522)",
        ]
    }

    private func writeBadFiles(_ files: Files) throws {
        try files.write(files.main, "[Location]\nGPSD=😀\n[Weather]\nURL=http://[::1\n")
        #expect(mkfifo(files.dropIns + "/10-fifo.conf", 0o644) == 0)
        try files.write(files.dropIns + "/20-bad.conf", "[Socket]\nPath=/\n[Location]\nFallback=1e999,5\n")
    }

    @Test func everyErrorAtOnceAndExitStatus1() async throws {
        let files = try Files()
        defer { files.remove() }
        try writeBadFiles(files)
        let result = try await runProcess(try Binaries.path("wundercastd"), ["--check-config", "--config", files.main])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.split(separator: "\n").map(String.init) == Self.expectedErrors(files))
    }

    @Test func startUpRefusesAnInvalidConfigurationListingEveryError() async throws {
        let files = try Files()
        defer { files.remove() }
        try writeBadFiles(files)
        let result = try await runProcess(try Binaries.path("wundercastd"), ["--config", files.main])
        #expect(result.status == 1)
        #expect(
            result.stderr.split(separator: "\n").map(String.init)
                == Self.expectedErrors(files).map { "wundercastd: \($0)" })
    }

    /// `[MQTT] PasswordFile=` is shown as its path; the password never is, in the effective
    /// configuration or in an error, whether it is in the file or written where it does not belong.
    @Test func theBrokerPasswordIsNeverPrinted() async throws {
        let files = try Files()
        defer { files.remove() }
        let secret = "hunter2-\(UUID().uuidString.prefix(8))"
        let passwordFile = files.root.appendingPathComponent("mqtt.password").path
        try files.write(passwordFile, secret + "\n")
        try files.write(
            files.main, "[MQTT]\nBroker=mqtts://broker.example.org\nUsername=van\nPasswordFile=\(passwordFile)\n")
        let result = try await runProcess(try Binaries.path("wundercastd"), ["--check-config", "--config", files.main])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").contains("PasswordFile=\(passwordFile)  # \(files.main):4"))
        #expect(!(result.stdout + result.stderr).contains(secret))
        try files.write(
            files.dropIns + "/50-plain.conf", "[MQTT]\nBroker=mqtt://broker.example.org\nPassword=\(secret)\n")
        let refused = try await runProcess(
            try Binaries.path("wundercastd"), ["--check-config", "--config", files.main])
        #expect(refused.status == 1)
        #expect(!(refused.stdout + refused.stderr).contains(secret))
        let errors = refused.stderr.split(separator: "\n")
        #expect(errors.contains { $0.hasPrefix("\(files.dropIns)/50-plain.conf:3: Password= is refused") })
        #expect(
            errors.contains {
                $0.hasPrefix("\(files.dropIns)/50-plain.conf:2: PasswordFile= would send the password in clear text")
            })
    }

    /// A password file the daemon could not use fails the check as it fails the start (as a bad
    /// `APIKeyFile=` does), at its `file:line`, naming the file and never its content.
    @Test func aPasswordFileTheDaemonCannotUseFailsTheCheck() async throws {
        let files = try Files()
        defer { files.remove() }
        let missing = files.root.appendingPathComponent("missing.password").path
        try files.write(
            files.main, "[MQTT]\nBroker=mqtts://broker.example.org\nUsername=van\nPasswordFile=\(missing)\n")
        let result = try await runProcess(try Binaries.path("wundercastd"), ["--check-config", "--config", files.main])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "\(files.main):4: cannot read the MQTT password from [MQTT] PasswordFile=\(missing): No such file or directory"
            ),
            "\(result.stderr)")
        let twoWords = files.root.appendingPathComponent("two.password").path
        try files.write(twoWords, "hunter two\n")
        try files.write(
            files.main, "[MQTT]\nBroker=mqtts://broker.example.org\nUsername=van\nPasswordFile=\(twoWords)\n")
        let bad = try await runProcess(try Binaries.path("wundercastd"), ["--check-config", "--config", files.main])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("it must contain the password alone"), "\(bad.stderr)")
        #expect(!(bad.stdout + bad.stderr).contains("hunter"))
    }
}
