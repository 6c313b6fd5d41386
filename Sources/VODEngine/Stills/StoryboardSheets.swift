import Foundation
import VODFFmpeg

/// Builds the storyboard's sprite sheets as keyframes arrive in time order: each tile is scaled once and
/// copied into its place in a full-range `yuvj420p` sheet, and each sheet is written as JPEG once full.
final class StoryboardSheets {
    let layout: StoryboardLayout
    private let folder: URL
    private var sheet: Frame?
    private var sheetIndex = -1
    /// The next tile without a picture.
    private(set) var nextTile = 0
    /// The last tile picture, which fills tiles after the last keyframe.
    private var lastTile: Frame?
    /// How much earlier than a tile's time its keyframe may be: keyframes fall on the grid give or take a frame.
    static let tolerance = 0.25

    init(layout: StoryboardLayout, folder: URL) {
        self.layout = layout
        self.folder = folder
    }

    /// Gives the keyframe at `time` to every tile from the next one whose time it has reached.
    func add(_ frame: Frame, at time: Double) throws {
        guard nextTile < layout.tiles, time + Self.tolerance >= layout.time(ofTile: nextTile) else { return }
        let tile = try layout.tileSize.picture(from: frame).reference()
        while nextTile < layout.tiles, time + Self.tolerance >= layout.time(ofTile: nextTile) {
            try place(tile)
        }
        lastTile = tile
    }

    /// Fills the tiles no keyframe reached with the last picture, writes the last sheet, and returns the
    /// sheets' file names.
    func finish() throws -> [String] {
        if let lastTile { while nextTile < layout.tiles { try place(lastTile) } }
        try writeSheet()
        return (0..<layout.sheets).map(StoryboardLayout.sheetName)
    }

    private func place(_ tile: Frame) throws {
        let (index, x, y) = layout.place(nextTile)
        if index != sheetIndex {
            try writeSheet()
            let size = layout.sheetSize(index)
            let fresh = try Frame.video(width: Int32(size.width), height: Int32(size.height), format: .yuvj420p)
            Self.fillBlack(fresh)
            sheet = fresh
            sheetIndex = index
        }
        if let sheet { Self.copy(tile, into: sheet, x: x, y: y) }
        nextTile += 1
    }

    private func writeSheet() throws {
        guard let sheet, sheetIndex >= 0 else { return }
        try JPEGEncoder.encode(sheet).write(to: folder.appendingPathComponent(StoryboardLayout.sheetName(sheetIndex)), options: .atomic)
        self.sheet = nil
    }

    /// The three planes of a 4:2:0 picture: data, line size, and the divisor of the plane's dimensions.
    private static func planes(_ frame: Frame) -> [(UnsafeMutablePointer<UInt8>?, Int, Int)] {
        (0..<3).map { plane in (frame.planeData(plane), frame.lineSize(ofPlane: plane), plane == 0 ? 1 : 2) }
    }

    private static func fillBlack(_ frame: Frame) {
        for (index, (data, lineSize, divisor)) in planes(frame).enumerated() {
            data?.update(repeating: index == 0 ? 0 : 128, count: lineSize * Int(frame.height) / divisor)
        }
    }

    /// Copies `tile` into `sheet` with its top-left corner at (`x`, `y`), both even.
    private static func copy(_ tile: Frame, into sheet: Frame, x: Int, y: Int) {
        for ((source, sourceLine, divisor), (destination, destinationLine, _)) in zip(planes(tile), planes(sheet)) {
            guard let source, let destination else { continue }
            let width = Int(tile.width) / divisor
            for row in 0..<Int(tile.height) / divisor {
                (destination + (y / divisor + row) * destinationLine + x / divisor).update(from: source + row * sourceLine, count: width)
            }
        }
    }
}
