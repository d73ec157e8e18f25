// wundercastctl: asks wundercastd over its Unix socket. Only wiring; formats live in WundercastCore.
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastCore
import WundercastPOSIX

let usage = """
    usage: wundercastctl [--socket PATH] COMMAND

    commands:
      now [--json]        the current weather, one line (or the daemon's JSON object)
      watch [--json]      one line per change, until interrupted
      authorize [STATUS]  show, or decide, GPS use: always | when-in-use | denied | ask
      version             the daemon's version (--version: this program's)

    The socket is --socket PATH, else $WUNDERCAST_SOCKET, else /run/wundercast/wundercast.sock
    (or $XDG_RUNTIME_DIR/wundercast/wundercast.sock when only that one exists).

    Exit status: 0 when the daemon answered (whatever the weather's status; see --json),
    1 when it could not be asked, 2 on a usage error.
    """

func fail(_ message: String, status: Int32 = 1) -> Never {
    StandardError.write("wundercastctl: \(message)\n")
    exit(status)
}

/// Writes `text` to stdout at once (status bars read line by line; stdout may be a pipe).
func emit(_ text: String) {
    do {
        try Descriptor.writeAll(1, Array(text.utf8), subject: "stdout")
    } catch {
        exit(error.code == EPIPE ? 0 : 1)  // the reader left
    }
}

func defaultSocketPath() -> String {
    if let path = Environment.value("WUNDERCAST_SOCKET"), !path.isEmpty { return path }
    let system = "/run/wundercast/wundercast.sock"
    if access(system, F_OK) != 0, let runtime = Environment.value("XDG_RUNTIME_DIR"), !runtime.isEmpty {
        let user = runtime + "/wundercast/wundercast.sock"
        if access(user, F_OK) == 0 { return user }
    }
    return system
}

/// A connection to the daemon: sends one request, reads response lines.
struct Connection {
    let fd: Int32
    let path: String
    var buffer: [UInt8] = []

    init(path: String) {
        self.path = path
        do {
            fd = try UnixSocket.connect(path: path)
            try Descriptor.setTimeouts(fd, seconds: Self.answerSeconds)
        } catch {
            let reason = error.reason
            switch error.code {
            case ENOENT, ECONNREFUSED:
                fail(
                    "wundercastd is not running (no daemon at \(path): \(reason)); start it (systemctl start wundercast.socket, or wundercastd --config FILE), or check --socket / $WUNDERCAST_SOCKET"
                )
            case EACCES:
                fail("no permission to use \(path): \(reason); join the 'wundercast' group")
            default:
                fail("cannot connect to \(path): \(reason)")
            }
        }
    }

    /// Longest wait for the daemon's answer (a bar must never hang on a stuck daemon).
    static let answerSeconds = 5

    /// No time limit from now on (`watch`, once the daemon has answered).
    func waitForever() {
        try? Descriptor.setTimeouts(fd, seconds: 0)
    }

    func send(_ request: String) {
        let bytes = Array((request + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            do {
                offset += try blockingSyscall("send", path) {
                    bytes.withUnsafeBytes {
                        Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                    }
                }
            } catch {
                fail("lost the daemon while sending: \(error.reason)")
            }
        }
    }

    /// The next line without its newline, or `nil` when the daemon closed the connection.
    mutating func readLine() -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let n: Int
            do {
                n = try blockingSyscall("recv", path) {
                    chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                }
            } catch  where error.code == EAGAIN || error.code == EWOULDBLOCK {
                fail(
                    "no answer from wundercastd at \(path) within \(Self.answerSeconds) s (it accepted the connection but is stuck or overloaded)"
                )
            } catch {
                return nil
            }
            if n == 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}

/// Decodes a response line; an ERROR object from the daemon ends the program with its message.
func decodeOrFail(_ line: [UInt8]) -> WeatherState {
    do {
        return try SocketProtocol.decodeState(line)
    } catch {
        if let err = try? JSONDecoder().decode(SocketProtocol.ErrorResponse.self, from: Data(line)),
            err.class == "ERROR"
        {
            fail("the daemon refused the request: \(err.message)")
        }
        fail("unreadable answer from the daemon: \(String(decoding: line.prefix(200), as: UTF8.self))")
    }
}

signal(SIGPIPE, SIG_IGN)  // a status bar that quits reading: EPIPE, exit 0 (see emit)
var arguments = Array(CommandLine.arguments.dropFirst())[...]
var socketPath: String? = nil
var words: [String] = []
while let argument = arguments.popFirst() {
    switch argument {
    case "--socket", "-s":
        guard let value = arguments.popFirst() else { fail("--socket needs a PATH", status: 2) }
        socketPath = value
    case "--help", "-h":
        emit(usage + "\n")
        exit(0)
    case "--version":
        emit("wundercastctl \(Wundercast.version)\n")
        exit(0)
    default:
        words.append(argument)
    }
}
let path = socketPath ?? defaultSocketPath()
guard let command = words.first else {
    emit(usage + "\n")
    exit(2)
}
let flags = Set(words.dropFirst())

switch command {
case "now", "watch":
    let unknown = flags.subtracting(["--json"])
    guard unknown.isEmpty else { fail("unknown option '\(unknown.sorted()[0])' for \(command)", status: 2) }
    let json = flags.contains("--json")
    var connection = Connection(path: path)
    connection.send(command)
    while let line = connection.readLine() {
        if json {
            _ = decodeOrFail(line)
            emit(String(decoding: line, as: UTF8.self) + "\n")
        } else {
            emit(HumanFormat.line(decodeOrFail(line), now: Date()) + "\n")
        }
        if command == "now" { exit(0) }
        connection.waitForever()  // watch: the next change may be hours away
    }
    fail("the daemon closed the connection")
case "authorize":
    guard words.count <= 2 else { fail("authorize takes at most one STATUS", status: 2) }
    if words.count == 2, AuthorizationStatus(configName: words[1]) == nil {
        fail("'\(words[1])' is not a status: use always, when-in-use, denied or ask", status: 2)
    }
    var connection = Connection(path: path)
    connection.send(words.joined(separator: " "))
    guard let line = connection.readLine() else { fail("the daemon closed the connection without answering") }
    guard let answer = try? JSONDecoder().decode(SocketProtocol.AuthorizationResponse.self, from: Data(line)) else {
        fail("unexpected answer: \(String(decoding: line, as: UTF8.self))")
    }
    emit("GPS authorization: \(answer.config)\n")
case "version":
    var connection = Connection(path: path)
    connection.send("version")
    guard let line = connection.readLine() else { fail("the daemon closed the connection without answering") }
    guard let answer = try? JSONDecoder().decode(SocketProtocol.VersionResponse.self, from: Data(line)) else {
        fail("unexpected answer: \(String(decoding: line, as: UTF8.self))")
    }
    emit("wundercastctl \(Wundercast.version), wundercastd \(answer.release) (protocol \(answer.proto))\n")
default:
    fail("unknown command '\(command)'\n\(usage)", status: 2)
}
