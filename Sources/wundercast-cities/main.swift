// wundercast-cities: writes the city table (CityTableFormat) from libgeonames' data, at build
// time, so that the daemon never links libgeonames/GLib. Only wiring; the format lives in
// WundercastPlaces.
import CGeonames
import WundercastPlaces
import WundercastPOSIX

let usage = """
    usage: wundercast-cities [--image] [--output PATH] [--library-version VERSION]
           wundercast-cities --image --from TABLE [--output PATH]
           wundercast-cities --query NAME
           wundercast-cities --measure PATH

    Writes every city libgeonames knows as a wundercast city table (stdout, or PATH replaced
    atomically): text (one city a line), or with --image the binary image the daemon maps
    (cities.bin). --from converts a text TABLE of your own into an image. --query prints libgeonames' own answer for NAME (geonames_query_cities_sync),
    best first, as table lines without the header (tests compare it with wundercast's search).
    --measure loads the table at PATH as the daemon does and prints load time, memory and query times.
    """

func fail(_ message: String, status: Int32 = 1) -> Never {
    StandardError.write("wundercast-cities: \(message)\n")
    ProcessControl.exit(status)
}

/// C text to a Swift string; NULL or empty is nil.
func text(_ pointer: UnsafePointer<gchar>?) -> String? {
    guard let pointer, pointer.pointee != 0 else { return nil }
    return String(cString: pointer)
}

/// City `index` as one table line; each GVariant is freed at once.
func cityLine(_ index: Int32) -> String? {
    guard let city = geonames_get_city(index) else { return nil }
    defer { geonames_city_free(city) }
    return CityTableFormat.line(
        name: text(geonames_city_get_name(city)) ?? "", region: text(geonames_city_get_state(city)),
        countryCode: text(geonames_city_get_country_code(city)), timeZone: text(geonames_city_get_timezone(city)),
        latitude: geonames_city_get_latitude(city), longitude: geonames_city_get_longitude(city),
        population: Int(geonames_city_get_population(city)), countryName: text(geonames_city_get_country(city)))
}

/// libgeonames has no version call: the `Version:` of its pkg-config file (libgeonames-dev is
/// installed wherever this tool is built).
func pkgConfigVersion() -> String? {
    var directories = (Environment.value("PKG_CONFIG_PATH") ?? "").split(separator: ":").map(
        String.init)
    directories += [
        "/usr/lib/x86_64-linux-gnu/pkgconfig", "/usr/lib/aarch64-linux-gnu/pkgconfig",
        "/usr/lib/pkgconfig", "/usr/share/pkgconfig", "/usr/local/lib/pkgconfig",
    ]
    for directory in directories {
        guard let bytes = try? WholeFile.read(path: directory + "/geonames.pc", limit: 64 * 1024) else { continue }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("Version:") {
            return String(line.dropFirst("Version:".count).drop(while: { $0 == " " || $0 == "\t" }))
        }
    }
    return nil
}

var output: String?
var libraryVersion: String?
var query: String?
var image = false
var from: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--measure":
        guard let path = arguments.popFirst() else { fail("--measure needs a path", status: 2) }
        do {
            print(try measure(path), terminator: "")
            ProcessControl.exit(0)
        } catch {
            fail("\(path): \(error)")
        }
    case "--image": image = true
    case "--output", "--library-version", "--query", "--from":
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value\n\(usage)", status: 2) }
        switch argument {
        case "--output": output = value
        case "--library-version": libraryVersion = value
        case "--from": from = value
        default: query = value
        }
    case "--help", "-h":
        print(usage)
        ProcessControl.exit(0)
    default: fail("unknown argument \(argument)\n\(usage)", status: 2)
    }
}

if from != nil && !image { fail("--from needs --image\n\(usage)", status: 2) }
var lines: [String] = []
if let from {
    do {
        lines = [String(decoding: try WholeFile.read(path: from, limit: 16 << 20), as: UTF8.self)]
    } catch {
        fail("cannot read \(from): \(error.reason)")
    }
} else if let query {
    var length: guint = 0
    var error: UnsafeMutablePointer<GError>?
    guard let indexes = geonames_query_cities_sync(query, GEONAMES_QUERY_DEFAULT, &length, nil, &error) else {
        fail("libgeonames query failed: \(text(error?.pointee.message) ?? "no reason given")")
    }
    defer { g_free(indexes) }
    for i in 0..<Int(length) { if let line = cityLine(indexes[i]) { lines.append(line) } }
} else {
    lines.append(CityTableFormat.header(libraryVersion: libraryVersion ?? pkgConfigVersion() ?? "(version unknown)"))
    for index in 0..<geonames_get_n_cities() {
        guard let line = cityLine(index) else { fail("libgeonames has no city \(index)") }
        lines.append(line)
    }
}
var bytes = Array((lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")).utf8)
if image {
    do {
        bytes = try CityTable(parsing: bytes).imageBytes
    } catch {
        fail("\(from ?? "libgeonames' cities"): \(error)")
    }
}
do {
    if let output {
        try WholeFile.writeAtomically(bytes, to: output)
    } else {
        try Descriptor.writeAll(1, bytes, subject: "stdout")
    }
} catch {
    fail("cannot write \(output ?? "stdout"): \(error)")
}
