import Foundation
import Testing
import WundercastCore
import WundercastPOSIX
import WundercastServer
import WundercastTestSupport

/// A blocking test client for the daemon's socket.
struct LineClient {
    let fd: Int32
    var buffer: [UInt8] = []

    init(path: String) throws {
        fd = try UnixSocket.connect(path: path)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)  // a broken server fails the test, never hangs it
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or `nil` on EOF or timeout.
    mutating func readLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let i = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<i], as: UTF8.self)
                buffer.removeSubrange(...i)
                return line
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    func close() { Glibc.close(fd) }
}

func jsonObject(_ line: String?) throws -> [String: Any] {
    let line = try #require(line)
    return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
}

/// A value behind a lock, shareable with the server's handlers.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

@Suite(.serialized) final class SocketServerTests {
    let directory: URL
    let path: String
    let store = StateStore(provider: "open-meteo", authorization: .authorizedAlways)
    let watchers = Locked<[Int]>([])
    let nowRequests = Locked(0)
    var server: SocketServer!

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-socket-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("s.sock").path
    }

    deinit {
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func start(maxPendingBytes: Int = 1 << 20) throws {
        let store = self.store
        let watchers = self.watchers
        let nowRequests = self.nowRequests
        let authorization = ObservableValue(AuthorizationStatus.authorizedAlways)
        server = SocketServer(
            listenFD: try UnixSocket.listen(path: path),
            handlers: .init(
                currentState: { store.current },
                nowRequested: { nowRequests.withLock { $0 += 1 } },
                authorize: { status in
                    if let status { authorization.send(status) }
                    return authorization.value
                },
                watchersChanged: { n in watchers.withLock { $0.append(n) } }),
            maxPendingBytes: maxPendingBytes)
        server.start()
    }

    @Test func nowAnswersTheCurrentStateAtOnce() throws {
        try start()
        var client = try LineClient(path: path)
        defer { client.close() }
        client.send("now\n")
        let object = try jsonObject(client.readLine())
        #expect(object["class"] as? String == "WEATHER")
        #expect(object["status"] as? String == "noLocation")
        #expect(nowRequests.withLock { $0 } == 1)
        // The connection stays usable for more requests.
        client.send("version\n")
        #expect(try jsonObject(client.readLine())["class"] as? String == "VERSION")
    }

    @Test func badRequestsGetAnErrorObjectAndTheConnectionSurvives() throws {
        try start()
        var client = try LineClient(path: path)
        defer { client.close() }
        client.send("gimme weather\n")
        let error = try jsonObject(client.readLine())
        #expect(error["class"] as? String == "ERROR")
        #expect((error["message"] as? String)?.contains("'gimme'") == true)
        client.send("\u{FF}\u{FE}\n")  // not UTF-8
        #expect(try jsonObject(client.readLine())["class"] as? String == "ERROR")
        client.send("authorize when-in-use\n")
        #expect(try jsonObject(client.readLine())["config"] as? String == "when-in-use")
    }

    @Test func overlongRequestIsRefused() throws {
        try start()
        var client = try LineClient(path: path)
        defer { client.close() }
        client.send(String(repeating: "x", count: 5000))
        let error = try jsonObject(client.readLine())
        #expect((error["message"] as? String)?.contains("longer than 1024") == true)
        // Then the server lets go of the connection (no leaked descriptor).
        #expect(client.readLine() == nil)
        let deadline = Date().addingTimeInterval(10)
        while server.clientCount > 0 && Date() < deadline { usleep(10_000) }
        #expect(server.clientCount == 0)
    }

    @Test func watchSendsCurrentStateThenEachChange() throws {
        try start()
        var client = try LineClient(path: path)
        defer { client.close() }
        client.send("watch\n")
        #expect(try jsonObject(client.readLine())["status"] as? String == "noLocation")
        store.beginStatus(.denied, gate: .init(code: "denied", message: "GPS use is denied"))
        server.broadcast(store.current)
        let changed = try jsonObject(client.readLine())
        #expect((changed["error"] as? [String: Any])?["code"] as? String == "denied")
        #expect(watchers.withLock { $0 } == [1])
        client.close()
        let deadline = Date().addingTimeInterval(10)
        while watchers.withLock({ $0 }) != [1, 0] && Date() < deadline { usleep(10_000) }
        #expect(watchers.withLock { $0 } == [1, 0])
    }

    @Test func socatOneShotWorks() throws {
        try start()
        let socat = Process()
        socat.executableURL = URL(fileURLWithPath: "/usr/bin/socat")
        socat.arguments = ["-", "UNIX-CONNECT:\(path)"]
        let input = Pipe()
        let output = Pipe()
        socat.standardInput = input
        socat.standardOutput = output
        try socat.run()
        input.fileHandleForWriting.write(Data("now\n".utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        socat.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(try jsonObject(lines.first.map(String.init))["class"] as? String == "WEATHER")
    }

    @Test func aReaderThatDoesNotReadIsDroppedAndOthersAreServed() throws {
        try start(maxPendingBytes: 64 * 1024)
        let stuck = try LineClient(path: path)  // never reads
        defer { stuck.close() }
        var healthy = try LineClient(path: path)
        defer { healthy.close() }
        stuck.send("watch\n")
        healthy.send("watch\n")
        #expect(healthy.readLine() != nil)
        // A reader on its own thread drains the healthy client as fast as lines come.
        let received = Locked(0)
        let drained = DispatchSemaphore(value: 0)
        let reader = Thread { [healthy] in
            var client = healthy
            while let line = client.readLine() {
                received.withLock { $0 += 1 }
                if line.contains("\"VERSION\"") { break }
            }
            drained.signal()
        }
        reader.start()
        var state = store.current
        let changes = 3000
        for batch in 0..<30 {
            for i in (batch * 100)..<(batch * 100 + 100) {
                state.error = .init(code: "test", message: "change \(i) " + String(repeating: "·", count: 200))
                server.broadcast(state)
            }
            // A healthy reader keeps up with changes as they come (bounded wait).
            let deadline = Date().addingTimeInterval(10)
            while received.withLock({ $0 }) < batch * 100 + 100 && Date() < deadline { usleep(1000) }
        }
        let deadline = Date().addingTimeInterval(20)
        while server.clientCount > 1 && Date() < deadline { usleep(10_000) }
        #expect(server.clientCount == 1, "the stuck reader is dropped, the healthy one kept")
        healthy.send("version\n")
        #expect(drained.wait(timeout: .now() + 20) == .success)
        #expect(received.withLock { $0 } == changes + 1, "every change and the version reached the healthy reader")
    }

    @Test func aLiveSocketIsNotStolenAndAStaleOneIsReplaced() throws {
        try start()
        #expect(throws: Errno.self) { try UnixSocket.listen(path: self.path) }
        server.stop()
        server = nil
        // The file is left behind by a "dead daemon": a new one takes it over.
        let fd = try UnixSocket.listen(path: path)
        close(fd)
    }
}
