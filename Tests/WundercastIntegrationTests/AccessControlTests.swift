import Foundation
import Testing
import WundercastModel
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
        try await ask(socket: test.path, as: identity, requests)
    }

    /// As ``ask(_:as:_:)``, on the socket at `socket`.
    private func ask(socket: String, as identity: [String], _ requests: String) async throws -> [String] {
        // The server's close once every request is answered ends socat (-t only a safety net):
        // lookups are tasks of this test process, which a loaded run keeps waiting for seconds.
        let socat = try ChildProcess(
            ["/usr/bin/setpriv"] + identity + ["/usr/bin/socat", "-t", "90", "-", "UNIX-CONNECT:\(socket)"],
            stdinPipe: true, separateStderr: true)
        socat.writeToStdin(Array(requests.utf8))
        socat.closeStdin()
        let status = try await socat.exited(timeout: .seconds(60))
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

    /// Issue 14, S1, with the real daemon: its own position is 48.1372,11.5755 (`Fallback=`,
    /// `Precision=2`: the cell 48.14,11.58), public readers see 48.1,11.6. `nobody` probes the
    /// 100 cells of 0.01° around the public position with `weather LAT,LON`, and `around … 0.01`,
    /// and learns nothing: each answer is its public cell's (the daemon's cell answers as its
    /// neighbours do, fetched for the probe, not the daemon's answer), and the provider is asked
    /// only public cells for it.
    @Test func nobodyProbingTheCellsAroundThePublicPositionLearnsNothing() async throws {
        let http = try await FixtureHTTPServer()
        defer { http.stop() }
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                Fallback=48.1372,11.5755
                [Throttle]
                MaxAge=1h
                [Weather]
                URL=\(http.baseURL)
                Precision=2
                Timeout=5s
                [Socket]
                PublicPrecision=1
                """)
        #expect(chmod(daemon.directory.path, 0o755) == 0)
        let own = try await daemon.waitForState("the daemon's own weather") { $0["weather"] != nil }
        let ownFetchedAt = try #require(own["fetchedAt"] as? String)
        #expect(own[path: "location.latitude"] as? Double == 48.14)
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]
        let probeStart = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let dates = ISO8601DateFormatter()

        /// An answer without its age (which grows while the probe runs), as text to compare.
        func shape(_ answer: [String: Any]) throws -> String {
            var answer = answer
            answer["ageSeconds"] = nil
            return String(
                decoding: try JSONSerialization.data(withJSONObject: answer, options: .sortedKeys), as: UTF8.self)
        }
        var byCell: [String: String] = [:]
        for row in 0..<10 {
            for column in 0..<10 {
                let cell = Coordinate(latitude: 48.10 + Double(row) / 100, longitude: 11.55 + Double(column) / 100)
                let query =
                    "weather \(Coordinate.text(cell.latitude, decimals: 2)),\(Coordinate.text(cell.longitude, decimals: 2))\n"
                let lines = try await ask(socket: daemon.socketPath, as: nobody, query)
                let answer = try jsonObject(lines.first)
                #expect(answer["class"] as? String == "WEATHER", "\(query): \(lines)")
                let fetchedAt = try #require((answer["fetchedAt"] as? String).flatMap(dates.date(from:)))
                #expect(fetchedAt >= probeStart, "\(query): not the daemon's answer (\(ownFetchedAt))")
                let publicCell = cell.rounded(toDecimals: 1)
                #expect(answer[path: "location.latitude"] as? Double == publicCell.latitude, "\(query)")
                #expect(answer[path: "location.longitude"] as? Double == publicCell.longitude, "\(query)")
                let key = "\(publicCell.latitude),\(publicCell.longitude)"
                let seen = try shape(answer)
                #expect(byCell[key, default: seen] == seen, "\(query) answers as the rest of its public cell")
                byCell[key] = seen
            }
        }
        for request in ["around 48.14,11.58 0.01\n", "around 0.01\n"] {
            let around = try jsonObject(try await ask(socket: daemon.socketPath, as: nobody, request).first)
            let cells = try #require(around["cells"] as? [[String: Any]], "\(around)")
            #expect(cells.count == 9)
            for cell in cells {
                let latitude = try #require(cell["latitude"] as? Double)
                let longitude = try #require(cell["longitude"] as? Double)
                let position = Coordinate(latitude: latitude, longitude: longitude)
                #expect(position == position.rounded(toDecimals: 1), "\(request): a public cell, \(cell)")
                #expect(byCell["\(latitude),\(longitude)"] != nil, "\(request): a cell probed above, \(cell)")
                #expect(cell["weather"] != nil && cell["error"] == nil, "\(cell)")
            }
        }
        // The provider: the daemon's own cell once, then only public cells (one decimal).
        let asked = try http.requests().filter { $0.path == "/v1/forecast" }
        #expect(asked.first?.query["latitude"] == "48.14")
        for request in asked.dropFirst() {
            for name in ["latitude", "longitude"] {
                for value in (request.query[name] ?? "").split(separator: ",") {
                    #expect(value.split(separator: ".").last.map { $0.count <= 1 } ?? true, "\(request.queryString)")
                }
            }
        }
        #expect(asked.count - 1 <= byCell.count, "at most one request per public cell")
        #expect(await daemon.stop() == 0)
    }
}
