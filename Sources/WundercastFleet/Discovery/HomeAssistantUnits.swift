import WundercastModel

// Each unit the daemon can publish in, as Home Assistant spells it (`homeassistant/const.py`:
// `UnitOfTemperature`, `UnitOfSpeed`, `UnitOfPressure`), for `unit_of_measurement`. The values in
// the state are in these units (``WundercastModel/Weather/converted(to:)``), so the sensors'
// units are the configured ones (`[Weather] TemperatureUnit=`, `WindSpeedUnit=`, `PressureUnit=`).

extension TemperatureUnit {
    /// `°C`, `°F`, `K`: `UnitOfTemperature`.
    var homeAssistantUnit: String {
        switch self {
        case .celsius: "°C"
        case .fahrenheit: "°F"
        case .kelvin: "K"
        }
    }
}

extension WindSpeedUnit {
    /// `km/h`, `m/s`, `mph`, `kn`, `Beaufort`: `UnitOfSpeed` (`BEAUFORT = "Beaufort"`).
    var homeAssistantUnit: String {
        switch self {
        case .kmh: "km/h"
        case .ms: "m/s"
        case .mph: "mph"
        case .kn: "kn"
        case .bft: "Beaufort"
        }
    }
}

extension PressureUnit {
    /// `hPa`, `inHg`, `mmHg`, `kPa`, `Pa`: `UnitOfPressure`.
    var homeAssistantUnit: String {
        switch self {
        case .hPa: "hPa"
        case .inHg: "inHg"
        case .mmHg: "mmHg"
        case .kPa: "kPa"
        case .pa: "Pa"
        }
    }
}
