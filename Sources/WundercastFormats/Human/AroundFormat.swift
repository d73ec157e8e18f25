import WundercastSupport
import WundercastModel
import WundercastProtocol

/// `wundercastctl around` in plain text: the 3×3 grid of an `AROUND` object with latitudes
/// down the side and longitudes across the top, each cell temperature and icon (`n/a` for a
/// cell without weather), then the centre and step, e.g.
///
///                 11.1°     12.1°     13.1°
///        50.02°   -3°C ☁️    -2°C ☁️    -2°C 🌨️
///        49.02°   -4°C ☁️    -3°C ☀️    -5°C ☀️
///        48.02°   -1°C 🌫️    -2°C ☁️    -3°C ☁️
///     centre 49.02,12.1 (near Regensburg), step 1°
///
/// and, when cells have no weather, one line per distinct reason: `n/a: HTTP 500: boom (2 cells)`.
public enum AroundFormat {
    /// The grid's lines (each with its newline), in `locale`'s words.
    public static func text(
        _ around: SocketProtocol.AroundResponse, icons: IconSet, locale: UserLocale = .english
    ) -> String {
        let cells = around.cells
        guard cells.count == 9 else {
            return locale.tr("unexpected answer: {count} cells instead of 9", ["count": String(cells.count)]) + "\n"
        }
        let width = 10
        func pad(_ text: String) -> String {
            text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
        }
        func degrees(_ value: Double) -> String { Coordinate.text(value, decimals: 4) + "°" }
        var lines: [String] = []
        lines.append(pad("") + (0..<3).map { pad(degrees(cells[$0].longitude)) }.joined())
        for row in 0..<3 {
            let rowCells = cells[(row * 3)..<(row * 3 + 3)]
            lines.append(
                pad(degrees(cells[row * 3].latitude))
                    + rowCells.map { pad(cellText($0, icons: icons, locale: locale)) }.joined())
        }
        let centre = around.center
        var centreText = PlaceText.coordinates(latitude: centre.latitude, longitude: centre.longitude)
        if let place = PlaceText.nearest(centre.place, locale) { centreText += " (\(place))" }
        lines.append(
            locale.tr(
                "centre {centre}, step {step}",
                ["centre": centreText, "step": Coordinate.text(around.step, decimals: 4) + "°"]))
        var reasons: [(String, Int)] = []
        for cell in cells where cell.weather == nil {
            let reason = UntrustedText.sanitized(cell.error?.message ?? locale.tr("no weather from the provider"))
            if let i = reasons.firstIndex(where: { $0.0 == reason }) {
                reasons[i].1 += 1
            } else {
                reasons.append((reason, 1))
            }
        }
        for (reason, count) in reasons {
            lines.append(locale.tr("n/a") + ": \(reason) (" + locale.trn("{n} cell", "{n} cells", count) + ")")
        }
        return lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) + "\n" }.joined()
    }

    /// `-3°C ☁️`, or `n/a` without weather.
    static func cellText(_ cell: SocketProtocol.AroundResponse.Cell, icons: IconSet, locale: UserLocale) -> String {
        guard let weather = cell.weather else { return locale.tr("n/a") }
        let condition = weather.conditionModel
        let icon = icons.icon(condition.kind, isDay: weather.isDay ?? true)
        guard let temperature = weather.temperature else { return icon }
        return DisplayRounding.temperature(temperature) + UntrustedText.sanitized(weather.units.temperature, limit: 8)
            + " "
            + icon
    }
}
