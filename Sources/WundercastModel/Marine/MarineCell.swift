/// A 0.25° cell of latitude and longitude, the unit in which `[Weather] Marine=auto` remembers
/// land and sea: row `⌊latitude / 0.25⌋`, column `⌊longitude / 0.25⌋` (a coordinate on a cell's
/// south or west edge belongs to it). Rows stay within −360…359 (latitude 90 belongs to the
/// northernmost cell, 89.75–90) and columns wrap to −720…719 (longitude 180 is −180's cell), so
/// every centre is a valid coordinate: latitude −89.875…89.875, longitude −179.875…179.875.
public struct MarineCell: Sendable, Hashable {
    /// The cell's size in degrees.
    public static let size = 0.25

    public var row: Int
    public var column: Int

    /// Cells per half turn of longitude (720) and per quarter turn of latitude (360).
    private static let columns = 720
    private static let rows = 360

    /// The cell at `row` (clamped to −360…359) and `column` (wrapped to −720…719).
    public init(row: Int, column: Int) {
        self.row = min(max(row, -Self.rows), Self.rows - 1)
        let turn = 2 * Self.columns
        self.column = ((column + Self.columns) % turn + turn) % turn - Self.columns
    }

    /// The cell of `coordinate`.
    public init(_ coordinate: Coordinate) {
        self.init(
            row: Int((coordinate.latitude / Self.size).rounded(.down)),
            column: Int((coordinate.longitude / Self.size).rounded(.down)))
    }

    /// The cell's centre, as ``SeaState/cell`` publishes it.
    public var centre: SeaState.Cell {
        SeaState.Cell(
            latitude: (Double(row) + 0.5) * Self.size, longitude: (Double(column) + 0.5) * Self.size)
    }
}
