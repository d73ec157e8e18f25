import WundercastCore
import WundercastGPSD

/// Weather for the machine's position (``WeatherService``) as a service. Cancelling
/// ``run()`` ends the current authorization's work (its fetch cancelled and awaited), closes
/// the location stream and waits until every gpsd reader has sent `?WATCH={"enable":false}`
/// and closed its connection.
struct LocationWeatherService: DaemonService {
    let name = "weather"
    let service: WeatherService<ContinuousClock>
    let gpsd: GPSDFixSource

    func run() async {
        await service.run()
        service.locationManager.close()
        await gpsd.readersEnded()
    }
}
