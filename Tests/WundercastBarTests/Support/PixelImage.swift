import Foundation

/// A screenshot in binary PPM (`P6`, 8 bits a channel), as grim (`-t ppm`) and netpbm's
/// xwdtopnm write it: where the colour is.
struct PixelImage {
    let width: Int
    let height: Int
    /// RGB, row by row.
    let pixels: [UInt8]

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    init(ppm path: String) throws {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The header: "P6", width, height, maximum, each after blanks (and # comments), then
        // one blank and the pixels.
        var fields: [String] = []
        var index = 0
        while fields.count < 4, index < data.count {
            while index < data.count, data[index] == UInt8(ascii: "#") || Self.isBlank(data[index]) {
                if data[index] == UInt8(ascii: "#") {
                    while index < data.count, data[index] != UInt8(ascii: "\n") { index += 1 }
                }
                index += 1
            }
            let start = index
            while index < data.count, !Self.isBlank(data[index]) { index += 1 }
            fields.append(String(decoding: data[start..<index], as: UTF8.self))
        }
        index += 1
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]),
            fields[3] == "255", data.count - index >= width * height * 3
        else { throw Unreadable(description: "\(path): not an 8-bit P6 image (\(fields))") }
        self.width = width
        self.height = height
        pixels = Array(data[index..<(index + width * height * 3)])
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The pixel at `x`, `y`: red, green, blue.
    func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }

    /// Whether a pixel is clearly coloured: its channels more than 96 apart, which no grey of
    /// antialiased dark text on a white bar is.
    static func isColoured(_ pixel: (UInt8, UInt8, UInt8)) -> Bool {
        let channels = [Int(pixel.0), Int(pixel.1), Int(pixel.2)]
        return channels.max()! - channels.min()! > 96
    }

    /// Whether a pixel is dark grey (text): no channel above 128, and not coloured.
    static func isDark(_ pixel: (UInt8, UInt8, UInt8)) -> Bool {
        max(pixel.0, pixel.1, pixel.2) < 128 && !isColoured(pixel)
    }

    /// The columns with at least one pixel for which `matches` holds, in the top `rows` rows.
    func columns(rows: Int, where matches: ((UInt8, UInt8, UInt8)) -> Bool) -> [Int] {
        (0..<width).filter { x in (0..<min(rows, height)).contains { y in matches(pixel(x, y)) } }
    }

    /// How many rows from the top end in a white pixel at the right edge: a white bar's height.
    var whiteRows: Int {
        (0..<height).first { y in
            let (r, g, b) = pixel(width - 1, y)
            return min(r, g, b) < 240
        } ?? height
    }

    /// Columns next to each other (gaps of at most 3) that hold coloured pixels: how many, and
    /// the rows they span.
    struct Run {
        var first: Int
        var last: Int
        var pixels: Int
        var top: Int
        var bottom: Int
        /// The coloured pixels' share of the box around them.
        var density: Double { Double(pixels) / Double((last - first + 1) * (bottom - top + 1)) }
    }

    /// The runs of columns with coloured pixels (``isColoured(_:)``) in the top `rows` rows,
    /// left to right.
    func colouredRuns(rows: Int) -> [Run] {
        var runs: [Run] = []
        for x in 0..<width {
            let coloured = (0..<min(rows, height)).filter { Self.isColoured(pixel(x, $0)) }
            guard let top = coloured.first, let bottom = coloured.last else { continue }
            if let last = runs.last, x - last.last <= 4 {
                runs[runs.count - 1].last = x
                runs[runs.count - 1].pixels += coloured.count
                runs[runs.count - 1].top = min(last.top, top)
                runs[runs.count - 1].bottom = max(last.bottom, bottom)
            } else {
                runs.append(Run(first: x, last: x, pixels: coloured.count, top: top, bottom: bottom))
            }
        }
        return runs
    }
}
