extension WeatherCondition {
    /// The condition of an OpenWeatherMap condition id (Source: OpenWeatherMap 2.5
    /// `weather[].id`, documented under "Weather condition codes"); `nil` or an id not listed
    /// below gives ``Kind/unknown``, never an error.
    ///
    /// | ids | meaning | kind | severe |
    /// |---|---|---|---|
    /// | 200–202, 210–212, 221, 230–232 | thunderstorm (with rain or drizzle) | thunderstorm | yes |
    /// | 300–302, 310–314, 321 | drizzle, drizzle rain, shower drizzle | drizzle | |
    /// | 500 | light rain | lightRain | |
    /// | 501 | moderate rain | rain | |
    /// | 502, 503, 504 | heavy, very heavy, extreme rain | heavyRain | yes |
    /// | 511 | freezing rain | freezingRain | yes |
    /// | 520, 521, 531 | light, plain, ragged shower rain | showers | |
    /// | 522 | heavy shower rain | showers | yes |
    /// | 600, 601 | light snow, snow | snow | |
    /// | 602 | heavy snow | snow | yes |
    /// | 611–613, 615, 616 | sleet, (light) shower sleet, (light) rain and snow | sleet | |
    /// | 620, 621 | light shower snow, shower snow | snowShowers | |
    /// | 622 | heavy shower snow | snowShowers | yes |
    /// | 701, 741 | mist, fog | fog | |
    /// | 711, 721 | smoke, haze | haze | |
    /// | 731, 751, 761, 762 | sand/dust whirls, sand, dust, volcanic ash | dust | |
    /// | 771 | squalls | squall | yes |
    /// | 781 | tornado | tornado | yes |
    /// | 800 | clear sky | clear | |
    /// | 801 | few clouds (11–25 %) | mainlyClear | |
    /// | 802 | scattered clouds (25–50 %) | partlyCloudy | |
    /// | 803, 804 | broken (51–84 %), overcast clouds (85–100 %) | overcast | |
    ///
    /// 803 shares its icon (`04d`) with 804 at OpenWeatherMap, so it is overcast here too.
    /// Whether it is day or night comes from the icon: ``isDay(openWeatherMapIcon:)``.
    public init(openWeatherMapID id: Int?) {
        guard let id, let entry = Self.openWeatherMapTable[id] else {
            self.init(kind: .unknown)
            return
        }
        self.init(kind: entry.kind, isSevere: entry.isSevere)
    }

    /// Day (`true`) or night (`false`) from an OpenWeatherMap icon code such as `01d` or
    /// `10n` (Source: `weather[].icon`); `nil` unless it is two digits and `d` or `n`.
    public static func isDay(openWeatherMapIcon icon: String?) -> Bool? {
        guard let icon else { return nil }
        let bytes = Array(icon.utf8)
        guard bytes.count == 3, bytes[0...1].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        switch bytes[2] {
        case UInt8(ascii: "d"): return true
        case UInt8(ascii: "n"): return false
        default: return nil
        }
    }

    static let openWeatherMapTable: [Int: (kind: Kind, isSevere: Bool)] = {
        var table: [Int: (kind: Kind, isSevere: Bool)] = [:]
        func add(_ ids: [Int], _ kind: Kind, severe: Bool = false) {
            for id in ids { table[id] = (kind, severe) }
        }
        add([200, 201, 202, 210, 211, 212, 221, 230, 231, 232], .thunderstorm, severe: true)
        add([300, 301, 302, 310, 311, 312, 313, 314, 321], .drizzle)
        add([500], .lightRain)
        add([501], .rain)
        add([502, 503, 504], .heavyRain, severe: true)
        add([511], .freezingRain, severe: true)
        add([520, 521, 531], .showers)
        add([522], .showers, severe: true)
        add([600, 601], .snow)
        add([602], .snow, severe: true)
        add([611, 612, 613, 615, 616], .sleet)
        add([620, 621], .snowShowers)
        add([622], .snowShowers, severe: true)
        add([701, 741], .fog)
        add([711, 721], .haze)
        add([731, 751, 761, 762], .dust)
        add([771], .squall, severe: true)
        add([781], .tornado, severe: true)
        add([800], .clear)
        add([801], .mainlyClear)
        add([802], .partlyCloudy)
        add([803, 804], .overcast)
        return table
    }()
}
