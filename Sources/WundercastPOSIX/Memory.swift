/// The process's heap.
public enum Memory {
    /// Gives free heap pages back to the system (glibc's `malloc_trim(0)`): after a one-time
    /// burst of allocations (loading the city table) the daemon idles with a smaller RSS.
    public static func returnFreePages() {
        _ = glibcMallocTrim(0)
    }
}

/// glibc's `int malloc_trim(size_t pad)` (<malloc.h>, not in Swift's Glibc module).
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32

extension Memory {
    /// At most `count` malloc arenas (glibc's `mallopt(M_ARENA_MAX, count)`); call before
    /// threads exist. glibc gives each thread that allocates an arena of its own, up to 8 per
    /// core, and each reserves 64 MiB of address space: 317 MiB of the debug daemon's 417 MiB
    /// (`VmPeak`) were arenas, which made the address-space floor (`LimitAS=`) grow with the
    /// machine's cores. The daemon allocates little and rarely from several threads at once.
    public static func limitArenas(_ count: Int32) {
        _ = glibcMallopt(-8, count)  // M_ARENA_MAX, <malloc.h>
    }
}

/// glibc's `int mallopt(int param, int value)` (<malloc.h>, not in Swift's Glibc module).
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
