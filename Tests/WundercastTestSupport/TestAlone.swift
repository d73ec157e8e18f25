import Foundation

/// Runs the tests of this test binary that `filter` names in a child process of their own (a
/// test that must be alone in its process — counting its threads — or in namespaces of its
/// own, or that stops its process), with `environment` added to this process's (the variable
/// that enables a test meant to run only there). `setUp` is a shell command run first, in the
/// child, after `launcher` (e.g. `unshare -rmn` then a `mount --bind`): the tests run only if it
/// succeeds; `$1`… are `arguments`. Standard error is in the result's `stdout` too.
public func runTestsAlone(
    _ filter: String, environment: [String: String], launcher: [String] = [], setUp: String = "true",
    arguments: [String] = [], timeout: Duration = .seconds(120)
) async throws -> ProcessResult {
    let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    let command = [CommandLine.arguments[0], "--testing-library", "swift-testing", "--filter", filter]
    // `sh -c SCRIPT NAME ARGS…`: the script sees `arguments` as $1…, then runs the tests after them.
    let script = "\(setUp) && shift \(arguments.count) && exec \"$@\" 2>&1"
    let all = launcher + ["/bin/sh", "-c", script, "sh"] + arguments + ["/usr/bin/env"] + variables + command
    return try await runProcess(all[0], Array(all.dropFirst()), timeout: timeout)
}
