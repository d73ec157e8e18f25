import Testing

@testable import WundercastCtl

/// Which socket `wundercastctl` talks to: `--socket`, else `$WUNDERCAST_SOCKET`, else the system
/// socket, or the user unit's socket in `$XDG_RUNTIME_DIR` when only that one exists.
@Suite struct DefaultSocketTests {
    static let user = "/run/user/1000/wundercast/wundercast.sock"

    struct Case: Sendable, CustomStringConvertible {
        var environment: [String: String]
        var existing: Set<String>
        var expected: String
        var description: String { "\(environment) \(existing.sorted()) → \(expected)" }
    }

    static let cases: [Case] = [
        // Only the user socket: found without any setting.
        .init(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], existing: [user], expected: user),
        // Both: the system socket wins (the daemon for every user).
        .init(
            environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], existing: [user, CommandContext.systemSocket],
            expected: CommandContext.systemSocket),
        // Neither: the system socket, which the error message names.
        .init(
            environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], existing: [], expected: CommandContext.systemSocket),
        // No runtime directory (a cron job, su): the system socket.
        .init(environment: [:], existing: [user], expected: CommandContext.systemSocket),
        .init(environment: ["XDG_RUNTIME_DIR": ""], existing: [user], expected: CommandContext.systemSocket),
        // $WUNDERCAST_SOCKET wins over both, existing or not; empty means unset.
        .init(
            environment: ["WUNDERCAST_SOCKET": "/tmp/w.sock", "XDG_RUNTIME_DIR": "/run/user/1000"],
            existing: [user, CommandContext.systemSocket], expected: "/tmp/w.sock"),
        .init(
            environment: ["WUNDERCAST_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/1000"], existing: [user],
            expected: user),
    ]

    @Test(arguments: cases)
    func defaultPath(_ c: Case) {
        let path = CommandContext.defaultSocketPath(environment: { c.environment[$0] }, exists: c.existing.contains)
        #expect(path == c.expected)
    }

    /// `--socket` wins over everything.
    @Test func socketOptionWins() throws {
        let invocation = try ArgumentParser.parse(["now", "--socket", "/tmp/given.sock"])
        #expect(CommandContext(invocation, locale: .english).path == "/tmp/given.sock")
    }
}
