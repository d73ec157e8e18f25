import Foundation
import Testing
import WundercastTestSupport

/// Every example exchange in docs/PROTOCOL.md, run through `socat` against a real daemon (a
/// loopback weather server, the real city table, the fallback place Tromsø): each documented
/// answer must match the real one in shape (every documented member present, with the same
/// JSON type) and in its stable members (`class`, `code`, `status`, `source`, `config`, place
/// names …). A documented example that the daemon no longer answers that way fails here.
@Suite(.serialized) struct ProtocolExamplesTests {
    struct Example: CustomStringConvertible {
        var request: String
        var answers: [String]
        var line: Int
        var description: String { "PROTOCOL.md:\(line) \(request)" }
    }

    static let document = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/PROTOCOL.md")

    /// `$ echo 'REQUEST' | socat - UNIX-CONNECT:…` lines in ```console blocks, each followed by
    /// its answer lines.
    static func examples() throws -> [Example] {
        let lines = try String(contentsOf: document, encoding: .utf8).components(separatedBy: "\n")
        var examples: [Example] = []
        var inConsole = false
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") {
                inConsole = line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ echo ") {
                var request = String(line.dropFirst("$ echo ".count).prefix { $0 != "|" })
                request = request.trimmingCharacters(in: .whitespaces)
                if request.hasPrefix("'") && request.hasSuffix("'") { request = String(request.dropFirst().dropLast()) }
                examples.append(Example(request: request, answers: [], line: index + 1))
            } else if !line.isEmpty, !examples.isEmpty {
                examples[examples.count - 1].answers.append(line)
            }
        }
        return examples
    }

    /// Members whose values must be the same, not only of the same type.
    static let stable: Set<String> = [
        "class", "code", "status", "source", "config", "proto", "state", "name", "country", "region", "condition",
        "weatherCode", "authorization", "provider", "step", "bearing",
    ]

    /// Where `actual` differs from `documented` (empty when it matches).
    static func differences(_ documented: Any, _ actual: Any?, at path: String = "") -> [String] {
        guard let actual else { return ["\(path): missing"] }
        switch documented {
        case let object as [String: Any]:
            guard let real = actual as? [String: Any] else { return ["\(path): not an object"] }
            return object.keys.sorted().flatMap { key -> [String] in
                let inner = path.isEmpty ? key : "\(path).\(key)"
                if stable.contains(key), let want = object[key], !(want is [String: Any]), !(want is [Any]) {
                    return "\(want)" == "\(real[key] ?? "nil")" ? [] : ["\(inner): \(real[key] ?? "nil") ≠ \(want)"]
                }
                return differences(object[key]!, real[key], at: inner)
            }
        case let array as [Any]:
            guard let real = actual as? [Any] else { return ["\(path): not an array"] }
            guard real.count >= array.count else { return ["\(path): \(real.count) items, documented \(array.count)"] }
            return array.enumerated().flatMap { differences($0.element, real[$0.offset], at: "\(path)[\($0.offset)]") }
        case is String:
            return actual is String ? [] : ["\(path): not a string"]
        case is NSNumber:
            return actual is NSNumber ? [] : ["\(path): not a number"]
        default:
            return []
        }
    }

    @Test func everyDocumentedExampleIsWhatTheDaemonAnswers() async throws {
        let examples = try Self.examples()
        #expect(examples.count >= 10, "PROTOCOL.md documents an example per request")
        let requests = Set(examples.map { $0.request.split(separator: " ").first.map(String.init) ?? "" })
        for request in ["now", "watch", "weather", "around", "status", "refresh", "authorize", "version", "help"] {
            #expect(requests.contains(request), "no example of '\(request)' in PROTOCOL.md")
        }
        let cities = try await RealCityTable.image()
        let weather = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                Fallback=Tromsø
                [Weather]
                URL=\(weather.baseURL)
                [Places]
                Cities=\(cities.path)
                OnlineGeocoding=no
                """)
        _ = try await daemon.waitForState("fresh") { $0["status"] as? String == "fresh" }
        for example in examples {
            // As a user would ask (`echo REQUEST | socat - UNIX-CONNECT:…`); the answers are
            // awaited as they arrive, as many as documented (a watcher's go on), not for a time.
            let socat = try ChildProcess(
                ["/usr/bin/socat", "-t", "60", "-", "UNIX-CONNECT:\(daemon.socketPath)"], stdinPipe: true,
                separateStderr: true)
            defer { socat.signalGroup(SIGKILL) }
            socat.writeToStdin(Array((example.request + "\n").utf8))
            socat.closeStdin()
            let answers = try await socat.output.waitFor(lines: example.answers.count, "the answers to \(example)")
            for (documented, real) in zip(example.answers, answers) {
                let want = try JSONSerialization.jsonObject(with: Data(documented.utf8))
                let got = try JSONSerialization.jsonObject(with: Data(real.utf8))
                let differences = Self.differences(want, got)
                #expect(differences.isEmpty, "\(example): \(differences.joined(separator: "; "))\nreal: \(real)")
            }
        }
        await weather.stopAndWait()
    }
}
