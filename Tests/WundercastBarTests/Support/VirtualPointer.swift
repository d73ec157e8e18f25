import Foundation
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A pointer in a ``HeadlessSway``, from the wlroots virtual-pointer protocol
/// (`zwlr_virtual_pointer_manager_v1`, which sway offers): a Wayland client of its own that
/// speaks the wire protocol directly (no library; Debian 12 packages no client for it that
/// needs no `/dev/uinput`). A headless sway has no input device (`WLR_LIBINPUT_NO_DEVICES=1`),
/// so its seat has no pointer and `swaymsg seat seat0 cursor set` reaches no client (checked:
/// the seat's capabilities stay 0); the virtual pointer is a device of the seat while this
/// connection lasts, and the surface under it gets the pointer's enter and motion events, as
/// from a mouse (a GTK tooltip then shows). ``close()`` (or `deinit`) ends it.
final class VirtualPointer: @unchecked Sendable {
    private var fd: Int32
    private var received: [UInt8] = []
    private var nextID: UInt32 = 2
    /// The `zwlr_virtual_pointer_v1` object.
    private var pointer: UInt32 = 0

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to `sway`'s Wayland socket and creates the pointer on the default seat. Every
    /// read from sway waits at most 10 s (`SO_RCVTIMEO`), then throws.
    init(in sway: HeadlessSway) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DatagramSocket.Failure(call: "socket", errno: errno) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((sway.runtime + "/" + sway.socket).utf8CString)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            guard path.count <= sunPath.count else { return false }
            sunPath.copyBytes(from: path.map { UInt8(bitPattern: $0) })
            return true
        }
        let connected =
            fits
            && withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
                }
            }
        guard setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0,
            connected
        else {
            // (deinit closes the socket)
            throw DatagramSocket.Failure(call: "connect to sway's Wayland socket", errno: errno)
        }
        // wl_display.get_registry, then a roundtrip: the globals are announced before it ends.
        let registry = newID()
        try send(1, 1, [registry])
        var globals: [String: (name: UInt32, version: UInt32)] = [:]
        try roundtrip { object, opcode, body in
            // wl_registry.global(name: uint, interface: string, version: uint)
            guard object == registry, opcode == 0, body.count >= 12 else { return }
            let length = Int(Self.word(body, 4))
            guard length >= 1, 8 + length <= body.count else { return }
            let interface = String(decoding: body[8..<(8 + length - 1)], as: UTF8.self)
            let versionAt = 8 + (length + 3) / 4 * 4
            guard versionAt + 4 <= body.count else { return }
            globals[interface] = (Self.word(body, 0), Self.word(body, versionAt))
        }
        let interface = "zwlr_virtual_pointer_manager_v1"
        guard let manager = globals[interface] else {
            throw Failure(description: "sway offers no \(interface) (globals: \(globals.keys.sorted()))")
        }
        // wl_registry.bind(name, new_id of interface version 1), then
        // manager.create_virtual_pointer(seat: null = the default seat, id).
        let managerID = newID()
        try send(registry, 0, [manager.name] + Self.string(interface) + [1, managerID])
        pointer = newID()
        try send(managerID, 0, [0, pointer])
        try roundtrip()
    }

    /// Moves the pointer to `x`, `y` on a screen of `width` × `height` (the whole layout:
    /// `motion_absolute`, then `frame`), and returns once sway has handled it (a roundtrip).
    func move(toX x: Int, y: Int, width: Int, height: Int) throws {
        try send(pointer, 1, [0, UInt32(x), UInt32(y), UInt32(width), UInt32(height)])
        try send(pointer, 4, [])
        try roundtrip()
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }

    private func newID() -> UInt32 {
        defer { nextID += 1 }
        return nextID
    }

    /// A request: the object, (size << 16 | opcode), then the arguments (32-bit words).
    private func send(_ object: UInt32, _ opcode: UInt32, _ arguments: [UInt32]) throws {
        let words = [object, UInt32(8 + 4 * arguments.count) << 16 | opcode] + arguments
        let bytes = words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw DatagramSocket.Failure(call: "send to sway", errno: errno) }
    }

    /// A string argument: its length with the NUL, then its bytes padded to whole words.
    private static func string(_ text: String) -> [UInt32] {
        var bytes = Array(text.utf8) + [0]
        let length = UInt32(bytes.count)
        while bytes.count % 4 != 0 { bytes.append(0) }
        return [length] + stride(from: 0, to: bytes.count, by: 4).map { word(bytes, $0) }
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }

    /// wl_display.sync, handing each event to `handle` until its callback's `done`; a
    /// wl_display.error throws.
    private func roundtrip(_ handle: (UInt32, UInt32, [UInt8]) -> Void = { _, _, _ in }) throws {
        let callback = newID()
        try send(1, 0, [callback])
        while true {
            while received.count >= 8 {
                let size = Int(Self.word(received, 4) >> 16)
                guard size >= 8 else { throw Failure(description: "a Wayland message of \(size) bytes") }
                guard received.count >= size else { break }
                let object = Self.word(received, 0)
                let opcode = Self.word(received, 4) & 0xFFFF
                let body = Array(received[8..<size])
                received.removeFirst(size)
                if object == callback { return }
                if object == 1, opcode == 0 {
                    throw Failure(description: "sway: protocol error \(body.count >= 8 ? Self.word(body, 4) : 0)")
                }
                handle(object, opcode, body)
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                throw DatagramSocket.Failure(call: "read from sway (\(count == 0 ? "closed" : "failed"))", errno: errno)
            }
            received += buffer[0..<count]
        }
    }
}
