import Foundation
import Testing
import WundercastModel
import WundercastPlaces
import WundercastPOSIX
import WundercastTestSupport

/// The real table's image (`cities.bin`, as `make` writes it) against its text, and the
/// daemon reading it: one copy in memory, checked once.
@Suite struct CityTableImageFileTests {
    @Test func theImageHoldsTheSameTableAsTheText() async throws {
        let text = try await RealCityTable.table()
        let image = try await RealCityTable.image()
        let file = try FileCopy(path: image.path, limit: 8 << 20)
        let mapped = try CityTable(image: file.bytes, owner: file)
        #expect(mapped.count == text.count)
        #expect(mapped.header == text.header)
        for i in 0..<text.count where mapped.city(at: i) != text.city(at: i) {
            Issue.record("city \(i): \(mapped.city(at: i)) in the image, \(text.city(at: i)) in the text")
            break
        }
        for name in ["Tromso", "Los Angeles, CA", "sao paulo", "Springfield, IL", "Ber", "Xyzzyqq"] {
            #expect(mapped.search(name, limit: 10) == text.search(name, limit: 10), "\(name)")
        }
        let trusted = try CityTable(image: file.bytes, owner: file, trusted: true)
        #expect(trusted.nearest(to: Coordinate(latitude: 69.65, longitude: 18.96))?.name == "Tromsø")
    }

    /// After start-up (a name search for `Fallback=`) and a `now` that shows the nearest city,
    /// the daemon holds the table as one copy in memory: no mapping of the file, no descriptor
    /// of it kept open.
    @Test func theDaemonHoldsOneCopyNoMappingOfTheFile() async throws {
        let image = try await RealCityTable.image()
        let weather = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                Fallback=Tromso
                [Weather]
                URL=\(weather.baseURL)
                [Places]
                Cities=\(image.path)
                OnlineGeocoding=no
                """)
        let state = try await daemon.waitForState("fresh") { $0["status"] as? String == "fresh" }
        let place = (state["location"] as? [String: Any])?["place"] as? [String: Any]
        #expect(place?["name"] as? String == "Tromsø")
        let maps = try String(contentsOfFile: "/proc/\(daemon.pid)/maps", encoding: .utf8)
        #expect(!maps.contains(image.path), "the table's file is mapped")
        // A descriptor the daemon closes between the listing and its link (a client's socket,
        // a transfer's connection) is gone, not the table's.
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon.pid)/fd/\($0)")
        }
        #expect(!fds.contains(image.path), "the daemon keeps the table's file open")
        await weather.stopAndWait()
    }
}
