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
