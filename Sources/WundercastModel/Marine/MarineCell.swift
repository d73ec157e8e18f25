/// A 0.25° cell of latitude and longitude, the unit in which `[Weather] Marine=auto` remembers
/// land and sea: row `⌊latitude / 0.25⌋`, column `⌊longitude / 0.25⌋` (a coordinate on a cell's
/// south or west edge belongs to it).
public struct MarineCell: Sendable, Hashable {
    /// The cell's size in degrees.
    public static let size = 0.25

    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    /// The cell of `coordinate` (longitude −180 and 180 are the same cell's edges only by
    /// accident of the grid: they stay two cells, which costs at most one request).
    public init(_ coordinate: Coordinate) {
        row = Int((coordinate.latitude / Self.size).rounded(.down))
        column = Int((coordinate.longitude / Self.size).rounded(.down))
    }

    /// The cell's centre, as ``SeaState/cell`` publishes it.
    public var centre: SeaState.Cell {
        SeaState.Cell(
            latitude: (Double(row) + 0.5) * Self.size, longitude: (Double(column) + 0.5) * Self.size)
    }
}
