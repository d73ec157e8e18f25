import WundercastSupport
import WundercastModel
import WundercastProtocol

/// `wundercastctl around` in plain text: the 3×3 grid of an `AROUND` object with latitudes
/// down the side and longitudes across the top, each cell temperature and icon (`n/a` for a
/// cell without weather), the centre cell in brackets, then the centre and step, e.g.
///
///                 11.1° E      12.1° E      13.1° E
///     50.02° N    -3°C ☁️       -2°C ☁️       -2°C 🌨️
///     49.02° N    -4°C ☁️      [-3°C ☀️]      -5°C ☀️
///     48.02° N    n/a          -2°C ☁️       -3°C ☁️
///     [centre] 49.02° N 12.1° E (near Regensburg), step 1°
///
/// Columns are aligned by terminal display width (``DisplayWidth``: an emoji takes 2 columns),
/// and, when cells have no weather, one line per distinct reason follows:
/// `n/a: HTTP 500: boom (2 cells)`.
public enum AroundFormat {
    /// The grid's lines (each with its newline), in `locale`'s words.
    public static func text(
        _ around: SocketProtocol.AroundResponse, icons: IconSet, locale: UserLocale = .english
    ) -> String {
        let cells = around.cells
        guard cells.count == 9 else {
            return locale.tr("unexpected answer: {count} cells instead of 9", ["count": String(cells.count)]) + "\n"
        }
        let latitudes = (0..<3).map { PlaceText.latitude(cells[$0 * 3].latitude, decimals: 4, locale) }
        let longitudes = (0..<3).map { PlaceText.longitude(cells[$0].longitude, decimals: 4, locale) }
        let texts = cells.map { cellText($0, icons: icons, locale: locale) }
        let labelWidth = latitudes.map(DisplayWidth.of).max() ?? 0
        let cellWidth = (longitudes + texts).map(DisplayWidth.of).max() ?? 0
        // A column holds a text after a blank, or the centre's between brackets; two blanks
        // separate columns.
        func column(_ text: String, centre: Bool = false) -> String {
            DisplayWidth.padded(centre ? "[" + text + "]" : " " + text, to: cellWidth + 2)
        }
        let gap = "  "
        var lines = [
            String(repeating: " ", count: labelWidth) + gap + longitudes.map { column($0) }.joined(separator: gap)
        ]
        for row in 0..<3 {
            let columns = (0..<3).map { column(texts[row * 3 + $0], centre: row * 3 + $0 == 4) }
            lines.append(DisplayWidth.padded(latitudes[row], to: labelWidth) + gap + columns.joined(separator: gap))
        }
        let centre = around.center
        var centreText = PlaceText.hemispheres(latitude: centre.latitude, longitude: centre.longitude, locale)
        if let place = PlaceText.nearest(centre.place, locale) { centreText += " (\(place))" }
        lines.append(
            locale.tr(
                "[centre] {centre}, step {step}",
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
