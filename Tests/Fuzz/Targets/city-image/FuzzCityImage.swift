@testable import WundercastModel
@testable import WundercastPlaces

/// libFuzzer entry: the input is a city table image (`cities.bin`), loaded as the daemon maps it
/// (``CityTable/init(image:owner:trusted:)``, on the heap instead of a mapped file so that a read
/// outside it is caught), checked in full and, as for an image checked before, trusted; each
/// table loaded is asked what the daemon asks: the place near a position, the place of a
/// rounded one, a name search.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCityImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let image = HeapImage(Array(UnsafeBufferPointer(start: data, count: size)))
    for trusted in [false, true] {
        guard let table = try? CityTable(image: UnsafeRawBufferPointer(image.bytes), owner: image, trusted: trusted)
        else { continue }
        for coordinate in positions {
            _ = table.place(near: coordinate)
            _ = table.place(inCell: coordinate.rounded(toDecimals: trusted ? 1 : 0), decimals: trusted ? 1 : 0)
        }
        for query in queries { _ = table.search(query, limit: 5) }
        for index in 0..<min(table.count, 8) { _ = table.city(at: index) }
    }
    return 0
}

private let positions = [
    Coordinate(latitude: 48.137, longitude: 11.575), Coordinate(latitude: -33.87, longitude: 151.21),
    Coordinate(latitude: 90, longitude: 180), Coordinate(latitude: -90, longitude: -180),
    Coordinate(latitude: 0, longitude: 0),
]
private let queries = ["München", "new york, us", "Saint-Étienne, FR", "a", "berlin, de"]
