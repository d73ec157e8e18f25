import CSignalfd

#if canImport(Glibc)
import Glibc
#endif

extension Signals {
    /// Every arrival of any of `numbers` (signal numbers, e.g. `SIGTERM`), in order, read
    /// from one `signalfd` served by `loop` (the daemon's one reactor: no thread of its own).
    /// Signals that arrived after ``blockBeforeThreads(_:)`` and before this call are pending
    /// and come first.
    ///
    /// `numbers` must have been blocked in every thread (``blockBeforeThreads(_:)``); they are
    /// blocked again in the calling thread here, which is enough only for a single-threaded caller.
    /// Ending the iteration (or cancelling its task) closes the descriptor; the signals stay blocked.
    ///
    /// - Throws: ``Errno`` from `signalfd` (`EMFILE`, `ENOMEM`) or `epoll_ctl`.
    public static func stream(
        _ numbers: [Int32] = handled, on loop: EventLoop
    ) async throws(Errno) -> AsyncStream<
        Int32
    > {
        var set = makeSet(numbers)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let fd = try blockingSyscall("signalfd", numbers.map(String.init).joined(separator: ",")) {
            signalfd(-1, &set, Int32(SFD_CLOEXEC) | Int32(SFD_NONBLOCK))
        }
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let registered = await loop.perform { () -> Result<EventLoop.Registration, Errno> in
            Result { () throws(Errno) in
                try loop.register(fd, for: .readable) { _ in
                    var info = signalfd_siginfo()
                    let size = MemoryLayout<signalfd_siginfo>.size
                    while true {
                        let result = try? syscall("read", "signalfd \(fd)") { Glibc.read(fd, &info, size) }
                        guard case .done(let n) = result, n == size else { return }
                        continuation.yield(Int32(bitPattern: info.ssi_signo))
                    }
                }
            }
        }
        switch registered {
        case .failure(let error):
            try? Descriptor.close(fd)
            throw error
        case .success(let registration):
            continuation.onTermination = { _ in
                // Unregistered before the descriptor closes, on the loop (or now, if it ended).
                let close: @Sendable () -> Void = {
                    loop.unregister(registration)
                    try? Descriptor.close(fd)
                }
                if !loop.post(close) { try? Descriptor.close(fd) }
            }
        }
        return stream
    }
}
