import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Output of a finished process.
public struct ProcessResult: Sendable {
    /// The exit code (128 + the signal number when a signal ended it).
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs `executable` with `arguments` to completion and returns its exit code and output.
/// Awaits the exit and the end of both pipes as events (see ``ChildProcess``); after `timeout`
/// the process group is killed (a safety net) and what it wrote so far is returned. Cancelled,
/// it kills the process group and throws `CancellationError`.
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    timeout: Duration = .seconds(60)
) async throws -> ProcessResult {
    let child = try ChildProcess([executable] + arguments, environment: environment, separateStderr: true)
    let status: Int32
    if let code = try? await child.exited(timeout: timeout) {
        status = code
    } else {
        child.signalGroup(SIGKILL)
        status = (try? await child.exited(timeout: .seconds(10))) ?? -1
    }
    // A grandchild may still hold the pipes: bounded.
    try? await child.output.waitForEnd("end of \(executable)'s stdout", timeout: .seconds(5))
    try? await child.errorOutput.waitForEnd("end of \(executable)'s stderr", timeout: .seconds(5))
    try Task.checkCancellation()
    return ProcessResult(status: status, stdout: child.output.rawText, stderr: child.errorOutput.rawText)
}
