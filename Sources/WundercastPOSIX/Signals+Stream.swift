import CSignalfd
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

extension Signals {
    /// Every arrival of any of `numbers` (signal numbers, e.g. `SIGTERM`), in order, read
    /// from one `signalfd` by a Dispatch read source. Signals that arrived after
    /// ``blockBeforeThreads(_:)`` and before this call are pending and come first.
    ///
    /// `numbers` must have been blocked in every thread (``blockBeforeThreads(_:)``); they are
    /// blocked again in the calling thread here, which is enough only for a single-threaded caller.
    /// Ending the iteration (or cancelling its task) closes the descriptor; the signals stay blocked.
    ///
    /// - Throws: ``Errno`` from `signalfd` (`EMFILE`, `ENOMEM`).
    public static func stream(_ numbers: [Int32] = handled) throws(Errno) -> AsyncStream<Int32> {
        var set = makeSet(numbers)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let fd = try blockingSyscall("signalfd", numbers.map(String.init).joined(separator: ",")) {
            signalfd(-1, &set, Int32(SFD_CLOEXEC) | Int32(SFD_NONBLOCK))
        }
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let source = DispatchSource.makeReadSource(
            fileDescriptor: fd, queue: DispatchQueue(label: "wundercast.signals"))
        source.setEventHandler {
            var info = signalfd_siginfo()
            let size = MemoryLayout<signalfd_siginfo>.size
            while true {
                let result = try? syscall("read", "signalfd \(fd)") { Glibc.read(fd, &info, size) }
                guard case .done(let n) = result, n == size else { return }
                continuation.yield(Int32(bitPattern: info.ssi_signo))
            }
        }
        // Dispatch's rule: the descriptor stays open until the source is cancelled.
        source.setCancelHandler { try? Descriptor.close(fd) }
        source.resume()
        let box = SourceBox(source)
        continuation.onTermination = { _ in box.source.cancel() }
        return stream
    }

    private final class SourceBox: @unchecked Sendable {
        let source: any DispatchSourceRead
        init(_ source: any DispatchSourceRead) { self.source = source }
    }
}
