/// A value confined to one ``EventLoop``'s thread, checked on every access (in the style of
/// swift-nio's `NIOLoopBound`): it can be held by `Sendable` types and handed across
/// threads, but only the loop reads or changes it; from elsewhere the process stops with the
/// place (``EventLoop/preconditionOnLoop(file:line:)``).
///
/// `@unchecked Sendable`: the confinement is checked at run time instead of by the compiler.
public final class LoopBound<Value>: @unchecked Sendable {
    public let loop: EventLoop
    private var stored: Value

    /// Made on any thread (the value is not read until the loop does).
    public init(_ value: Value, loop: EventLoop) {
        self.loop = loop
        stored = value
    }

    /// The value: loop thread only.
    public var value: Value {
        get {
            loop.preconditionOnLoop()
            return stored
        }
        _modify {
            loop.preconditionOnLoop()
            yield &stored
        }
    }
}
