import WundercastSupport
import WundercastConfiguration
import WundercastPlaces
import WundercastPipeline

import WundercastHTTP
import WundercastPOSIX

extension Daemon {
    /// `Fallback=PLACE`: resolves the name once at start-up (city table first, then online
    /// geocoding when allowed). A name that cannot be resolved is logged and left as it is: the
    /// state then says why there is no location (`fallback-name`), and the daemon keeps serving.
    static func resolvingFallback(
        _ configuration: Configuration, places: PlaceFinder, logger: Logger
    ) async -> Configuration {
        guard case .name(let name) = configuration.location.fallback else { return configuration }
        var resolved = configuration
        switch await places.resolve(name) {
        case .found(let coordinate, let place, let alternatives):
            resolved.location.fallback = .resolved(name: name, coordinate)
            let shown = coordinate.rounded(toDecimals: configuration.journal.precision)  // the journal's precision
            logger.info(
                "Fallback=\(name) is \(place.name)\(place.region.map { ", \($0)" } ?? "")\(place.country.map { ", \($0)" } ?? "") at \(shown.latitude),\(shown.longitude)"
                    + (alternatives.first.map {
                        " (\(alternatives.count) other places have that name too, e.g. Fallback=\($0.query))"
                    } ?? "")
            )
        case .notFound(let message), .unavailable(let message):
            logger.error("Fallback=\(name) cannot be used: \(message)")
        }
        return resolved
    }
}

extension Daemon {
    /// The places of `[Places]`: the city table (`Cities=`; unreadable or bad: logged, no place
    /// names) and online geocoding for names it lacks (`OnlineGeocoding=`, `GeocodingURL=`), whose
    /// HTTP transfers run on `loop` (the reactor).
    static func placeFinder(_ configuration: Configuration, loop: EventLoop, logger: Logger) -> PlaceFinder {
        let path = configuration.places.cities
        var file: CityTableFile?
        if !path.isEmpty {
            do {
                file = try CityTableFile(
                    path: path,
                    report: { valid, line in
                        if valid { logger.notice(line) } else { logger.error(line) }
                    })
            } catch {
                logger.warning(
                    "no place names: the city table \(path) cannot be used: \(error) (make install installs it; [Places] Cities=)"
                )
            }
        }
        let geocoder: OpenMeteoGeocoder? =
            configuration.places.onlineGeocoding
            ? OpenMeteoGeocoder(
                baseURL: configuration.places.geocodingURL,
                http: CurlHTTPClient(
                    userAgent: Wundercast.userAgent, loop: loop,
                    connectTimeout: min(Duration.seconds(5), configuration.weather.timeout),
                    timeout: configuration.weather.timeout))
            : nil
        guard file != nil || geocoder != nil else { return .none }
        let loaded = file
        let resolver = PlaceResolver(table: file, geocoder: geocoder)
        return PlaceFinder(
            // On the reactor (a `now`) the copy serves as it is; a changed file is read off it.
            nearest: { coordinate in
                loaded?.withTable(reloading: !loop.isCurrent) { $0.place(near: coordinate) } ?? nil
            },
            inCell: { cell, decimals in
                loaded?.withTable(reloading: !loop.isCurrent) { $0.place(inCell: cell, decimals: decimals) } ?? nil
            },
            resolve: { name in
                do throws(PlaceError) {
                    let found = try await resolver.match(name)
                    return .found(
                        found.city.coordinate, found.city.place, alternatives: found.alternatives.map(\.alternative))
                } catch {
                    return error.code == .noSuchPlace
                        ? .notFound(message: error.message) : .unavailable(message: error.message)
                }
            })
    }
}
