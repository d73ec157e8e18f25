import Testing
import WundercastModel
import WundercastPlaces

@Suite struct CityTableParsingTests {
    static let header = "# wundercast cities v1 from libgeonames 0.3.0; data © GeoNames, CC BY 4.0"

    @Test func citiesComeBackWithEveryField() throws {
        let table = try CityTable(
            parsing: Array(
                (Self.header + "\n"
                    + "Los Ángeles\tBiobío\tCL\tAmerica/Santiago\t-37.46973\t-72.35366\t125430\tChile\n"
                    + "# a comment\n\n"
                    + "Nowhere\t\t\t\t1\t-2.5\t0\t\r\n").utf8))
        #expect(table.count == 2)
        #expect(table.header == Self.header)
        let cities = (0..<table.count).map(table.city(at:)).sorted { $0.name < $1.name }
        #expect(
            cities[0]
                == City(
                    name: "Los Ángeles", region: "Biobío", country: "CL", countryName: "Chile",
                    timeZone: "America/Santiago", coordinate: Coordinate(latitude: -37.46973, longitude: -72.35366),
                    population: 125430))
        #expect(cities[1] == City(name: "Nowhere", coordinate: Coordinate(latitude: 1, longitude: -2.5), population: 0))
    }

    @Test func writerStripsControlCharacters() {
        let line = CityTableFormat.line(
            name: "Evil\tTown\n", region: "\u{1B}[31mRed", countryCode: "XX", timeZone: nil, latitude: 1.234567,
            longitude: -0.5, population: 7, countryName: nil)
        #expect(line == "Evil Town\t[31mRed\tXX\t\t1.23457\t-0.5\t7\t")
    }

    @Test(arguments: [
        ("", 1, "empty file"),
        ("name\tregion\n", 1, "not a wundercast city table"),
        ("\(header)\nA\tB\tDE\tEurope/Berlin\t1\t2\t3\n", 2, "expected 8 tab-separated fields, found 7"),
        ("\(header)\n\nA\tB\tDE\tZ\t1\t2\t3\tC\tD\n", 3, "expected 8 tab-separated fields, found 9"),
        ("\(header)\n\tB\tDE\tZ\t1\t2\t3\tC\n", 2, "empty name"),
        ("\(header)\nA\tB\tde\tZ\t1\t2\t3\tC\n", 2, "country code \"de\" is not two capital letters"),
        ("\(header)\nA\tB\tDE\tZ\t91\t2\t3\tC\n", 2, "latitude \"91\" is outside -90...90"),
        ("\(header)\nA\tB\tDE\tZ\t1\t-180.00001\t3\tC\n", 2, "longitude \"-180.00001\" is outside -180...180"),
        ("\(header)\nA\tB\tDE\tZ\t1.123456\t2\t3\tC\n", 2, "latitude \"1.123456\" is not a decimal number"),
        ("\(header)\nA\tB\tDE\tZ\tnorth\t2\t3\tC\n", 2, "latitude \"north\" is not a decimal number"),
        ("\(header)\nA\tB\tDE\tZ\t1.\t2\t3\tC\n", 2, "latitude \"1.\" is not a decimal number"),
        ("\(header)\nA\tB\tDE\tZ\t1\t2\t-3\tC\n", 2, "population \"-3\" is not a whole number"),
        ("\(header)\nA\tB\tDE\tZ\t1\t2\t3000000000\tC\n", 2, "population \"3000000000\" is not a whole number"),
        ("\(header)\nA\u{1B}[2J\tB\tDE\tZ\t1\t2\t3\tC\n", 2, "name \"A [2J\" contains a control character"),
    ])
    func badLinesAreNamed(_ text: String, _ line: Int, _ reason: String) {
        #expect {
            try CityTable(parsing: Array(text.utf8))
        } throws: { error in
            guard let error = error as? CityTableError else { return false }
            return error.line == line && error.reason.contains(reason)
                && error.description.hasPrefix("line \(line): ")
        }
    }

    @Test func invalidUTF8IsNamed() {
        let bytes = Array((Self.header + "\nA").utf8) + [0xFF] + Array("\tB\tDE\tZ\t1\t2\t3\tC\n".utf8)
        #expect(throws: CityTableError(line: 2, reason: "name is not UTF-8")) { try CityTable(parsing: bytes) }
    }
}
