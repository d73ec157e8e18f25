import WundercastPOSIX

/// The event loop the tests' HTTP clients run on, as the daemon's run on its reactor: one for
/// the test process, never stopped (tests that look at the loop itself make their own).
enum TestLoop {
    static let shared = try! EventLoop(name: "http-tests")
}
