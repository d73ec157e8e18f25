import Foundation
import Testing
import WundercastCore
import WundercastPOSIX
import WundercastServer
import WundercastTestSupport

/// Access control with real users: an unprivileged system user (made with `useradd` when
/// missing) connects through `setpriv … socat`; root runs the test. Skipped when not root.
@Suite(.enabled(if: geteuid() == 0, "needs root to create a second user and to run socat as it"))
struct AccessControlTests {
    static let userName = "wundercast-test-reader"
    static let groupName = "wundercast-test-precise"

    /// The reader's uid and gid and the precise group's gid, made once.
    static let accounts: Result<(uid: UInt32, gid: UInt32, precise: UInt32), any Error> = Result {
        if try GroupDatabase.gid(named: groupName) == nil {
            let made = try runSync(["/usr/sbin/groupadd", "--system", groupName])
            guard try made == 0 || GroupDatabase.gid(named: groupName) != nil else {
                throw Failure(description: "groupadd \(groupName) failed (\(made))")
            }
        }
        if getpwnam(userName) == nil {
            let made = try runSync(["/usr/sbin/useradd", "--system", "--no-create-home", userName])
            guard made == 0 || getpwnam(userName) != nil else {
                throw Failure(description: "useradd \(userName) failed (\(made))")
            }
        }
        let user = try #require(getpwnam(userName))
        return (user.pointee.pw_uid, user.pointee.pw_gid, try #require(try GroupDatabase.gid(named: groupName)))
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    private static func runSync(_ arguments: [String]) throws -> Int32 {
        let child = try ChildProcess(arguments, separateStderr: true)
        return child.exitedBlocking(timeout: .seconds(30)) ?? -1
    }

    /// Sends `requests` as the test user with `setpriv` options `identity`, half-closes, and
    /// returns the answer lines.
    private func ask(_ test: TestServer, as identity: [String], _ requests: String) async throws -> [String] {
        let socat = try ChildProcess(
            ["/usr/bin/setpriv"] + identity + ["/usr/bin/socat", "-t", "30", "-", "UNIX-CONNECT:\(test.path)"],
            stdinPipe: true, separateStderr: true)
        socat.writeToStdin(Array(requests.utf8))
        socat.closeStdin()
        let status = try await socat.exited(timeout: .seconds(20))
        try await socat.output.waitForEnd("socat's output")
        #expect(status == 0, "socat: \(socat.errorOutput.rawText)")
        return socat.output.lines
    }

    private func server() throws -> TestServer {
        let accounts = try Self.accounts.get()
        let test = try TestServer(
            settings: .init(preciseGroupID: accounts.precise, preciseGroupName: Self.groupName), directoryMode: 0o755)
        test.openLookups()
        return test
    }

    @Test func anotherUserReadsPublicPositionsAndMayNotDecide() async throws {
        let accounts = try Self.accounts.get()
        let test = try server()
        let lines = try await ask(
            test, as: ["--reuid=\(accounts.uid)", "--regid=\(accounts.gid)", "--clear-groups"],
            "now\nauthorize denied\nrefresh\nauthorize\nweather 1,2\nstatus\n")
        #expect(lines.count == 6, "\(lines)")
        let now = try jsonObject(lines.first)
        #expect(now[path: "location.latitude"] as? Double == 48.1)
        #expect(now[path: "location.longitude"] as? Double == 11.6)
        let refused = try jsonObject(lines[1])
        #expect(refused["code"] as? String == "not-permitted")
        let message = try #require(refused["message"] as? String)
        #expect(message.contains("'authorize denied'") && message.contains(Self.groupName), "\(message)")
        #expect(try jsonObject(lines[2])["code"] as? String == "not-permitted")
        #expect(try jsonObject(lines[3])["class"] as? String == "AUTHORIZATION", "showing is for everyone")
        // The lookup answers when it finishes (here after `status`, which answers at once).
        let lastTwo = try lines.suffix(2).map { try jsonObject($0)["class"] as? String ?? "" }
        #expect(Set(lastTwo) == ["STATUS", "ERROR"], "\(lines)")
        #expect(test.authorizations.value == [nil], "the daemon was never asked to decide")
        #expect(test.refreshes.value == 0)
        #expect(test.lookups.value == [.public], "lookups know the reader is public")
    }

    @Test(arguments: ["supplementary", "primary"])
    func aMemberOfPreciseGroupReadsPrecisely(membership: String) async throws {
        let accounts = try Self.accounts.get()
        let test = try server()
        let identity =
            membership == "primary"
            ? ["--reuid=\(accounts.uid)", "--regid=\(accounts.precise)", "--clear-groups"]
            : ["--reuid=\(accounts.uid)", "--regid=\(accounts.gid)", "--groups=\(accounts.precise)"]
        let lines = try await ask(test, as: identity, "now\nauthorize denied\n")
        #expect(try jsonObject(lines.first)[path: "location.latitude"] as? Double == 48.1234)
        #expect(try jsonObject(lines.last)["config"] as? String == "denied")
        #expect(test.authorizations.value == [.denied])
    }

    /// A watcher of public class gets the public view of each change.
    @Test func aPublicWatcherGetsThePublicViewOfChanges() async throws {
        let accounts = try Self.accounts.get()
        let test = try server()
        let socat = try ChildProcess(
            [
                "/usr/bin/setpriv", "--reuid=\(accounts.uid)", "--regid=\(accounts.gid)", "--clear-groups",
                "/usr/bin/socat", "-", "UNIX-CONNECT:\(test.path)",
            ], stdinPipe: true, separateStderr: true)
        defer { socat.signalGroup(SIGKILL) }
        socat.writeToStdin(Array("watch\n".utf8))
        try await socat.output.waitFor("the first state") { _ in true }
        var next = test.current
        next.precise.location?.latitude = 52.5201
        next.public.location?.latitude = 52.5
        test.set(next)
        let line = try await socat.output.waitFor("the change") { $0.contains("52.5") }
        #expect(try jsonObject(line)[path: "location.latitude"] as? Double == 52.5)
    }

    /// One user cannot take every place of `MaxClients=`: beyond its share it is refused,
    /// while root still gets in.
    @Test func oneUserGetsAtMostItsShareOfTheClients() async throws {
        let accounts = try Self.accounts.get()
        let test = try TestServer(settings: .init(maxClients: 100, maxClientsPerUser: 2), directoryMode: 0o755)
        var held: [ChildProcess] = []
        defer { for child in held { child.signalGroup(SIGKILL) } }
        var answers: [String] = []
        for n in 0..<3 {
            let socat = try ChildProcess(
                [
                    "/usr/bin/setpriv", "--reuid=\(accounts.uid)", "--regid=\(accounts.gid)", "--clear-groups",
                    "/usr/bin/socat", "-", "UNIX-CONNECT:\(test.path)",
                ], stdinPipe: true, separateStderr: true)
            held.append(socat)
            // The third asks nothing: it is refused as it connects.
            if n < 2 { socat.writeToStdin(Array("version\n".utf8)) }
            answers.append(try await socat.output.waitFor("an answer") { _ in true })
        }
        #expect(answers.prefix(2).allSatisfy { $0.contains("\"VERSION\"") }, "\(answers)")
        let refusal = try jsonObject(answers.last)
        #expect(refusal["code"] as? String == "too-many-clients")
        #expect((refusal["message"] as? String)?.contains("2 connections per user") == true)
        let root = try test.client()
        defer { root.close() }
        root.send("version\n")
        #expect(try jsonObject(await root.readLine())["class"] as? String == "VERSION")
    }
}
