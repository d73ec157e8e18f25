#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Unix signals as an `AsyncSequence`, built on `DispatchSource.makeSignalSource`.
public enum Signals {
    /// Every arrival of any of `numbers`. The default actions are replaced before this
    /// returns, so no signal is missed or kills the process between setup and reading.
    /// Built here, in a nonisolated function, so the handlers never inherit `@MainActor`
    /// (which traps when a source fires on another queue; PITFALLS).
    public static func stream(_ numbers: [Int32]) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let queue = DispatchQueue(label: "wundercast.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in numbers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: { @Sendable in continuation.yield(number) })
            source.resume()
            sources.append(source)
        }
        let keep = SourceBox(sources)
        continuation.onTermination = { _ in keep.cancel() }
        return stream
    }

    private final class SourceBox: @unchecked Sendable {
        let sources: [any DispatchSourceSignal]
        init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }
        func cancel() { for s in sources { s.cancel() } }
    }
}
