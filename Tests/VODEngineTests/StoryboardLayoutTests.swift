import Testing
@testable import VODEngine

/// How many tiles a title gets, how far apart, and which segments hold them.
@Suite(.timeLimit(.minutes(2))) struct StoryboardLayoutTests {
    @Test func tilesAreAKeyframeIntervalApartUntilATitleWouldHaveTooMany() {
        let short = StoryboardLayout(duration: 12, keyframeInterval: 2, width: 1280, height: 720)
        #expect(short.interval == 2 && short.tiles == 6 && short.columns == 6 && short.sheets == 1)
        #expect(short.tileSize == StillSize(width: 160, height: 90))
        let fiveMinutes = StoryboardLayout(duration: 300, keyframeInterval: 2, width: 1280, height: 720)
        #expect(fiveMinutes.interval == 2 && fiveMinutes.tiles == 150 && fiveMinutes.sheets == 2)
        let longer = StoryboardLayout(duration: 301, keyframeInterval: 2, width: 1280, height: 720)
        #expect(longer.interval == 4 && longer.tiles == 76)
        let film = StoryboardLayout(duration: 7200, keyframeInterval: 2, width: 1920, height: 800)
        #expect(film.interval == 48 && film.tiles == 150 && film.tileSize == StillSize(width: 160, height: 66))
        #expect(film.sheetSize(1) == StillSize(width: 1600, height: 5 * 66), "the second sheet has the 50 tiles left")
        #expect(film.place(123) == (1, 3 * 160, 2 * 66))
    }

    @Test func aSegmentHoldsATileWhenATileTimeFallsInItOrJustBefore() {
        let film = StoryboardLayout(duration: 7200, keyframeInterval: 2, width: 1920, height: 800)
        #expect(film.hasTile(from: 0, to: 6))
        #expect(!film.hasTile(from: 42, to: 48), "48 s is the next segment's")
        #expect(film.hasTile(from: 48, to: 54))
        #expect(film.hasTile(from: 48.1, to: 54.1), "a keyframe a frame late still makes the tile")
        #expect(!film.hasTile(from: 7194, to: 7200), "no tile after the last at 7152 s")
    }

    @Test func aNarrowRenditionGetsTilesNoWiderThanItself() {
        let narrow = StoryboardLayout(duration: 10, keyframeInterval: 2, width: 120, height: 90)
        #expect(narrow.tileSize == StillSize(width: 120, height: 90))
    }
}
