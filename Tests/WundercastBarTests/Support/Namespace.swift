import Foundation
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The PID namespace of a ``Contained`` bar: which of our processes run in it, found by name in
/// `/proc` (no other test's process is in it), and when one has ended.
struct PIDNamespace {
    /// The namespace's identity, the link `/proc/PID/ns/pid` of each of its processes
    /// (`pid:[4026532…]`).
    let identity: String

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The namespace whose first process is the child of `unshare` (host pid).
    init(ofChildOf unshare: pid_t) throws {
        let children = (try? String(contentsOfFile: "/proc/\(unshare)/task/\(unshare)/children", encoding: .utf8)) ?? ""
        guard let first = children.split(separator: " ").first.flatMap({ Int32($0) }),
            let identity = Self.namespace(of: first)
        else { throw Failure(description: "unshare \(unshare) has no child in a namespace of its own") }
        self.identity = identity
    }

    static func namespace(of pid: pid_t) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/pid")
    }

    /// The host pids of the processes in the namespace named `name` (`comm`, at most 15
    /// characters) that have not ended (a zombie has).
    func processes(named name: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            // /proc/PID/stat: "PID (comm) S …"; comm may hold blanks and parentheses.
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return false }
            let comm = stat[stat.index(after: open)..<close]
            let state = stat[stat.index(after: close)...].split(separator: " ").first
            return comm == name && state != "Z" && Self.namespace(of: pid) == identity
        }.sorted()
    }
}
