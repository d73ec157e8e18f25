#if canImport(Glibc)
import Glibc
#endif

/// A short-lived thread of its own for one blocking call that must hold neither the reactor nor
/// a thread of Swift's cooperative pool (two threads on two cores): a broker's `getaddrinfo`
/// and `connect` inside libmosquitto's `mosquitto_connect_async`, which can wait as long as the
/// resolver's time-outs when DNS does not answer.
public enum DetachedThread {
    /// Runs `body` on a new detached thread named `name` (15 bytes show) and returns at once.
    ///
    /// - Throws: ``Errno`` from `pthread_create` (no thread: `body` does not run).
    public static func run(name: String, _ body: @escaping @Sendable () -> Void) throws(Errno) {
        final class Work {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        let box = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { raw in
                let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
                ThreadName.set(work.name)
                work.body()
                return nil
            }, box)
        guard created == 0 else {
            Unmanaged<Work>.fromOpaque(box).release()
            throw Errno(call: "pthread_create", subject: name, code: created)
        }
        _ = pthread_detach(thread)
    }
}
