import CPrctl

#if canImport(Glibc)
import Glibc
#endif

extension ProcessControl {
    /// The signal ``hangUpWithParent()`` asks for: `SIGHUP`, "the reader hung up" — what the
    /// loss of a terminal sends too, so `nohup` (which ignores it) still keeps a command alive
    /// past its parent on purpose; `SIGTERM` would override that.
    public static let parentDeathSignal = SIGHUP

    /// Asks the kernel to send ``parentDeathSignal`` to this process when the thread that started
    /// it ends (`prctl(PR_SET_PDEATHSIG)`, through the `CPrctl` shim: `prctl` is variadic), and
    /// unblocks that signal (a bar's blocked signal mask is inherited through `exec`). Returns
    /// `false` when the parent is already gone: `getppid()` read before and right after the call
    /// differ, so the parent died in between and no signal will ever come. A parent that died
    /// before this process looked (it was orphaned at once) goes unnoticed here: its output
    /// hanging up says so (``pause(_:unlessHangUpOf:)``).
    ///
    /// The parent is the process that forked this one: a status bar, or a shell (`sh -c`) that
    /// did not `exec` — then the bar's end is seen only as the output's hang-up. The setting is
    /// kept across `execve` (of a program that is not set-user-ID) and not inherited by children.
    public static func hangUpWithParent() -> Bool {
        let parent = getppid()
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, parentDeathSignal)
        _ = sigprocmask(SIG_UNBLOCK, &signals, nil)
        // Fails only for a signal number out of range: then only the hang-up ends this process.
        _ = cprctl_set_parent_death_signal(parentDeathSignal)
        return getppid() == parent
    }
}
