import WundercastCore

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
        case .found(let coordinate, let place):
            resolved.location.fallback = .resolved(name: name, coordinate)
            logger.info(
                "Fallback=\(name) is \(place.name)\(place.region.map { ", \($0)" } ?? "")\(place.country.map { ", \($0)" } ?? "") at \(coordinate.latitude),\(coordinate.longitude)"
            )
        case .notFound(let message), .unavailable(let message):
            logger.error("Fallback=\(name) cannot be used: \(message)")
        }
        return resolved
    }
}

extension Daemon {
    /// The places of `[Places]`: the city table and online geocoding.
    static func placeFinder(_ configuration: Configuration, logger: Logger) -> PlaceFinder {
        .none  // TODO(issue 6): the city table from the `places` branch
    }
}
