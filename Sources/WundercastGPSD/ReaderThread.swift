import WundercastPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// A detached pthread running one closure: the closure is boxed, retained across
/// `pthread_create` and released by the thread when it ends.
enum ReaderThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// `pthread_create`'s error number.
    struct StartError: Error, Equatable {
        let code: Int32
    }

    /// Starts `body` on a new detached thread named `name` (at most 15 bytes: Linux's limit),
    /// so that `top -H` and `/proc/PID/task/*/comm` show it. Fails with `pthread_create`'s error.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Result<Void, StartError> {
        let box = Unmanaged.passRetained(
            Body {
                ThreadName.set(name)
                body()
            }
        ).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, box)
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return .failure(StartError(code: created))
        }
        _ = pthread_detach(thread)
        return .success(())
    }
}
