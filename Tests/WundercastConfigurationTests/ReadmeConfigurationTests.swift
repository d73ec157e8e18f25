import Foundation
import Testing

@testable import WundercastConfiguration

/// README's configuration examples are configuration the daemon takes: every ```` ```ini ````
/// block of README.md that is not a systemd unit's (`[Service]`) parses without an error, as a
/// user would paste it (a `#` after a value is part of the value: such a block once failed).
@Suite struct ReadmeConfigurationTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The text of each ```` ```ini ```` block, with the line of README it starts after.
    static func iniBlocks() throws -> [(line: Int, text: String)] {
        let lines = try String(contentsOf: readme, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var blocks: [(Int, String)] = []
        var current: (Int, [Substring])?
        for (index, line) in lines.enumerated() {
            if var block = current {
                if line.hasPrefix("```") {
                    blocks.append((block.0, block.1.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    block.1.append(line)
                    current = block
                }
            } else if line == "```ini" {
                current = (index + 1, [])
            }
        }
        return blocks
    }

    @Test func everyConfigurationExampleParses() throws {
        let blocks = try Self.iniBlocks().filter { !$0.text.contains("[Service]") }
        #expect(blocks.count >= 2, "README's configuration examples were not found")
        for block in blocks {
            let parsed = Configuration.parse(block.text, file: "README.md:\(block.line)", onto: ParsedConfiguration())
            #expect(parsed.errors.isEmpty, "\(parsed.errors)")
        }
    }
}
