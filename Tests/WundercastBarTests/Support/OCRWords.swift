import Foundation
import WundercastTestSupport

/// A word tesseract read and where: its box in pixels of the image read, its line (block,
/// paragraph and line numbers) and tesseract's confidence (0–100).
struct OCRWord: Sendable {
    var text: String
    var line: String
    var confidence: Double
    var left: Int
    var top: Int
    var width: Int
    var height: Int
}

extension OCR {
    /// The words tesseract reads in the image at `path` (tesseract's `tsv` output, its
    /// word-level rows: level 5, text not blank), in reading order.
    static func words(_ path: String) async throws -> [OCRWord] {
        let result = try await runProcess(
            try Tool.require("tesseract"), [path, "stdout", "--psm", "6", "tsv"],
            environment: ["PATH": "/usr/bin:/bin", "OMP_THREAD_LIMIT": "1"])
        // level page block paragraph line word left top width height confidence text
        return result.stdout.split(separator: "\n").compactMap { row in
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 12, fields[0] == "5",
                let left = Int(fields[6]), let top = Int(fields[7]), let width = Int(fields[8]),
                let height = Int(fields[9]), let confidence = Double(fields[10])
            else { return nil }
            let text = fields[11].trimmingCharacters(in: .whitespaces)
            return text.isEmpty
                ? nil
                : OCRWord(
                    text: text, line: fields[2...4].joined(separator: "."), confidence: confidence, left: left,
                    top: top,
                    width: width, height: height)
        }
    }
}

extension PixelImage {
    /// The stroke width of the dark text (``isDark(_:)``) in `word`'s box: the median length of
    /// the runs of dark pixels along its rows, in pixels (`nil`: no dark pixel). Bold text has
    /// wider strokes than regular text of the same size (DejaVu Sans at 20 px: 4 against 2–3).
    func strokeWidth(of word: OCRWord) -> Int? {
        let (left, right) = (max(0, word.left), min(width, word.left + word.width))
        let (top, bottom) = (max(0, word.top), min(height, word.top + word.height))
        guard left < right, top < bottom else { return nil }
        var runs: [Int] = []
        for y in top..<bottom {
            var run = 0
            for x in left...right {
                if x < right, Self.isDark(pixel(x, y)) {
                    run += 1
                } else if run > 0 {
                    runs.append(run)
                    run = 0
                }
            }
        }
        return runs.isEmpty ? nil : runs.sorted()[runs.count / 2]
    }
}
