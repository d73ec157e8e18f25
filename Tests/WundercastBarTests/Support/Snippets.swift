import Foundation

/// The checkout's files this target checks: the bar snippets in `etc/`, `man/`, `completions/`,
/// the Makefile. Found from this source file's path.
enum Repository {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // WundercastBarTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: url(relativePath), encoding: .utf8)
    }

    /// The regular files under `relativeDirectory`, as paths relative to the checkout, sorted.
    static func files(under relativeDirectory: String) -> [String] {
        let base = url(relativeDirectory)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var paths: [String] = []
        for case let file as URL in walker {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            paths.append(relativeDirectory + "/" + file.path.dropFirst(base.path.count + 1))
        }
        return paths.sorted()
    }
}

/// A ready-to-paste snippet in `etc/` and the command it makes its bar run, read out of the
/// file itself: the tests run exactly what a user pastes.
struct Snippet: Sendable, CustomStringConvertible {
    /// Path relative to the checkout, e.g. `etc/polybar.ini`.
    var path: String
    /// The shell command line the bar runs (through `sh -c`, as every one of these bars does).
    var command: String
    var description: String { path }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    static let waybarStyle = "etc/waybar/style.css"

    /// `"custom/wundercast".exec` of `etc/waybar/config.jsonc`.
    static func waybar() throws -> Snippet {
        let path = "etc/waybar/config.jsonc"
        let json = try JSONC.strip(try Repository.text(path))
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        guard let module = object?["custom/wundercast"] as? [String: Any], let exec = module["exec"] as? String else {
            throw Unreadable(description: "\(path): no \"custom/wundercast\" module with an \"exec\"")
        }
        return Snippet(path: path, command: exec)
    }

    /// `command=` of the `[wundercast]` block of `etc/i3blocks.conf`.
    static func i3blocks() throws -> Snippet {
        try ini("etc/i3blocks.conf", section: "wundercast", key: "command")
    }

    /// `exec =` of `[module/wundercast]` in `etc/polybar.ini`.
    static func polybar() throws -> Snippet {
        try ini("etc/polybar.ini", section: "module/wundercast", key: "exec")
    }

    /// `command =` of the custom `[[block]]` in `etc/i3status-rust.toml` (a TOML basic string).
    static func i3statusRust() throws -> Snippet {
        let path = "etc/i3status-rust.toml"
        let value = try ini(path, section: "[block]", key: "command").command
        guard value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 else {
            throw Unreadable(description: "\(path): command is not a TOML string: \(value)")
        }
        return Snippet(path: path, command: String(value.dropFirst().dropLast()))
    }

    /// The `status_command` of the `bar { }` block in `etc/sway-bar.conf`.
    static func swaybar() throws -> Snippet {
        let path = "etc/sway-bar.conf"
        for line in try Repository.text(path).split(separator: "\n") {
            let words = line.trimmingCharacters(in: .whitespaces)
            if words.hasPrefix("status_command ") {
                return Snippet(
                    path: path,
                    command: String(words.dropFirst("status_command ".count)).trimmingCharacters(in: .whitespaces))
            }
        }
        throw Unreadable(description: "\(path): no status_command line")
    }

    /// `key` in `[section]` of an INI-like file (`key=value` or `key = value`; `#` and `;`
    /// start comment lines).
    static func ini(_ path: String, section: String, key: String) throws -> Snippet {
        var current: String? = nil
        for raw in try Repository.text(path).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || line.hasPrefix(";") || line.isEmpty { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast())
                continue
            }
            guard current == section, let equals = line.firstIndex(of: "=") else { continue }
            if line[..<equals].trimmingCharacters(in: .whitespaces) == key {
                return Snippet(
                    path: path, command: line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces))
            }
        }
        throw Unreadable(description: "\(path): no \(key) in [\(section)]")
    }
}

/// JSON with comments, as Waybar reads it.
enum JSONC {
    /// `text` without its `//` and `/* */` comments (outside strings).
    static func strip(_ text: String) throws -> String {
        var out: [Character] = []
        let chars = Array(text)
        var i = 0
        var inString = false
        while i < chars.count {
            let c = chars[i]
            if inString {
                out.append(c)
                if c == "\\", i + 1 < chars.count {
                    out.append(chars[i + 1])
                    i += 2
                    continue
                }
                if c == "\"" { inString = false }
                i += 1
            } else if c == "\"" {
                inString = true
                out.append(c)
                i += 1
            } else if c == "/", i + 1 < chars.count, chars[i + 1] == "/" {
                while i < chars.count, chars[i] != "\n" { i += 1 }
            } else if c == "/", i + 1 < chars.count, chars[i + 1] == "*" {
                i += 2
                while i + 1 < chars.count, !(chars[i] == "*" && chars[i + 1] == "/") { i += 1 }
                i += 2
            } else {
                out.append(c)
                i += 1
            }
        }
        return String(out)
    }
}
