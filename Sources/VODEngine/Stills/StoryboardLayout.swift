import Foundation

/// Where each storyboard tile goes: one small picture every `interval` seconds (a multiple of the keyframe
/// interval, so each is a keyframe), laid out in sheets of `columns` × `rows` tiles, and the WebVTT that maps
/// each span of the title to its tile (`storyboard_0.jpg#xywh=0,0,160,90`).
public struct StoryboardLayout: Sendable, Equatable, Codable {
    /// The most tiles a title gets; longer titles get a longer interval.
    public static let maximumTiles = 150
    /// Tiles per sheet row, and rows per sheet.
    public static let gridSide = 10
    /// The width of a tile, when the rendition is at least as wide.
    public static let tileWidth = 160

    /// Seconds between tiles.
    public var interval: Double
    /// The title's duration, which the last cue ends at.
    public var duration: Double
    /// The number of tiles.
    public var tiles: Int
    /// The size of one tile.
    public var tileSize: StillSize
    /// Tiles per row of a sheet.
    public var columns: Int

    /// The layout for a title of `duration` seconds whose pictures are `width` × `height`, with keyframes
    /// every `keyframeInterval` seconds.
    init(duration: Double, keyframeInterval: Double, width: Int, height: Int) {
        let key = max(keyframeInterval, 0.1)
        let steps = max(1, (duration / Double(Self.maximumTiles) / key).rounded(.up))
        interval = steps * key
        self.duration = duration
        tiles = max(1, Int((duration / interval).rounded(.up)))
        tileSize = StillSize(width: Self.tileWidth, sourceWidth: width, sourceHeight: height)
        columns = min(Self.gridSide, tiles)
    }

    /// Tiles per sheet.
    var tilesPerSheet: Int { columns * Self.gridSide }

    /// The number of sheets.
    public var sheets: Int { (tiles + tilesPerSheet - 1) / tilesPerSheet }

    /// The file name of sheet `index`.
    public static func sheetName(_ index: Int) -> String { "storyboard_\(index).jpg" }

    /// The size of sheet `index`: full rows of `columns`, as many rows as its tiles need.
    func sheetSize(_ index: Int) -> StillSize {
        let count = min(tilesPerSheet, tiles - index * tilesPerSheet)
        let rows = (count + columns - 1) / columns
        return StillSize(width: columns * tileSize.width, height: rows * tileSize.height)
    }

    /// The sheet of tile `tile` and the tile's top-left corner in it.
    func place(_ tile: Int) -> (sheet: Int, x: Int, y: Int) {
        let within = tile % tilesPerSheet
        return (tile / tilesPerSheet, within % columns * tileSize.width, within / columns * tileSize.height)
    }

    /// The time the picture of tile `tile` is taken at, and its cue starts at.
    func time(ofTile tile: Int) -> Double { Double(tile) * interval }

    /// Whether a tile's time falls in `start..<end`, or so little before `start` (a quarter of a second) that
    /// the keyframe at `start` is the tile's picture.
    func hasTile(from start: Double, to end: Double) -> Bool {
        let first = max(0, Int(((start - StoryboardSheets.tolerance) / interval).rounded(.up)))
        return first < tiles && time(ofTile: first) < end
    }

    /// The WebVTT file: one cue per tile, back to back from 0 to the duration.
    public var webVTT: String {
        var lines = ["WEBVTT", ""]
        for tile in 0..<tiles {
            let (sheet, x, y) = place(tile)
            let end = min(time(ofTile: tile + 1), duration)
            lines.append("\(Self.timestamp(time(ofTile: tile))) --> \(Self.timestamp(max(end, time(ofTile: tile))))")
            lines.append("\(Self.sheetName(sheet))#xywh=\(x),\(y),\(tileSize.width),\(tileSize.height)")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// `hh:mm:ss.mmm`.
    static func timestamp(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60,
                      milliseconds / 1000 % 60, milliseconds % 1000)
    }
}
