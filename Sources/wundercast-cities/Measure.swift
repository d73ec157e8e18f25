#if canImport(Glibc)
import Glibc
#endif
import WundercastModel
import WundercastPlaces
import WundercastPOSIX

/// `--measure PATH`: loads a city table as the daemon does (an image read and checked; a text
/// table parsed) and prints what it costs: load time, bytes held, resident memory before and after, and the
/// time of a name search and of a nearest-city lookup. Build with `-c release` for the daemon's figures.
func measure(_ path: String) throws -> String {
    func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return (ContinuousClock.now - start) / .seconds(1)
    }
    let before = residentBytes()
    var table: CityTable?
    let load = try seconds { table = try loadTable(path) }
    guard let first = table else { return "no table" }
    let after = residentBytes()
    _ = malloc_trim(0)
    let trimmed = residentBytes()
    // Again, now that the code and tables the parse touches are resident: what the data costs.
    let secondBefore = residentBytes()
    table = try loadTable(path)
    _ = malloc_trim(0)
    let second = residentBytes() - secondBefore
    guard let table, table.count == first.count else { return "no table" }
    let names = ["Tromso", "Los Angeles, CA", "sao paulo", "Xyzzyqq", "Springfield, IL", "Ber", "Los Angeles, Chile"]
    let search = seconds { for name in names { _ = table.search(name, limit: 10) } } / Double(names.count)
    // Positions within about 20 km of every 10th city (where receivers are), and all over the globe.
    var nearCities: [Coordinate] = []
    var anywhere: [Coordinate] = []
    for i in stride(from: 0, to: table.count, by: 10) {
        let c = table.city(at: i).coordinate
        nearCities.append(Coordinate(latitude: c.latitude + 0.1, longitude: c.longitude - 0.15))
        anywhere.append(Coordinate(latitude: Double(i % 179) - 89, longitude: Double((i * 7) % 359) - 179))
    }
    let nearest = seconds { for p in nearCities { _ = table.place(near: p) } }
    let nearestAnywhere = seconds { for p in anywhere { _ = table.place(near: p) } }
    return """
        cities: \(table.count)
        load: \(Int(load * 1000)) ms
        held: \(table.heldBytes) bytes
        RSS of the first table: \(before) -> \(after) bytes (+\(after - before)); after malloc_trim(0) +\(trimmed - before); a second table +\(second)
        search: \(Int(search * 1_000_000)) µs per query
        place(near:): \(Int(nearest / Double(nearCities.count) * 1e9)) ns per position near a city, \(Int(nearestAnywhere / Double(anywhere.count) * 1e9)) ns anywhere (oceans, poles)

        """
}

/// The table at `path` as the daemon loads it (`CityTableFile` in WundercastServer).
func loadTable(_ path: String) throws -> CityTable {
    let file = try FileCopy(path: path, limit: 16 << 20)
    guard CityTableImage.isImage(file.bytes) else { return try CityTable(parsing: file.bytes) }
    let table = try CityTable(image: file.bytes, owner: file)
    return table
}

/// Resident set size from `/proc/self/statm` (pages × page size).
func residentBytes() -> Int {
    guard let bytes = try? WholeFile.read(path: "/proc/self/statm", limit: 4096) else { return 0 }
    let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

/// glibc's `malloc_trim` (`<malloc.h>`, not in Swift's Glibc module): returns the freed pages
/// of the parse's temporary arrays to the system.
@_silgen_name("malloc_trim")
func malloc_trim(_ pad: Int) -> Int32
