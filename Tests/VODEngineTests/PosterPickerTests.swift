import Testing
@testable import VODEngine

/// The poster rules on measured keyframes: black, flat and fading pictures are passed over.
@Suite(.timeLimit(.minutes(2))) struct PosterPickerTests {
    static func candidates(_ lumas: [(Double, Double)]) -> [PosterPicker.Candidate] {
        lumas.enumerated().map { PosterPicker.Candidate(time: Double($0.offset) * 2, luma: LumaStatistics(mean: $0.element.0, deviation: $0.element.1)) }
    }

    @Test func theKeyframeNearestTenPercentWinsWhenItShowsAPicture() {
        let keyframes = Self.candidates(Array(repeating: (100, 40), count: 50))
        #expect(PosterPicker.choose(keyframes, duration: 100) == 5, "10 s of 100 is the keyframe at 10 s")
    }

    @Test func blackFlatAndFadingKeyframesArePassedOver() {
        // 0 s black, 2 s flat grey, 4 s a dip to near black between scenes, 6 s and 8 s mid-fade, 10 s whole.
        let keyframes = Self.candidates([(16, 1), (120, 2), (40, 30), (100, 30), (60, 30), (90, 30), (120, 30), (120, 30)])
        #expect(!PosterPicker.qualifies(0, in: keyframes), "black")
        #expect(!PosterPicker.qualifies(1, in: keyframes), "flat")
        #expect(!PosterPicker.qualifies(2, in: keyframes), "much darker than both neighbours")
        #expect(!PosterPicker.qualifies(5, in: keyframes), "brightening towards both neighbours: a fade")
        #expect(PosterPicker.qualifies(3, in: keyframes), "a bright picture between darker ones is not a fade")
        #expect(PosterPicker.qualifies(6, in: keyframes))
        #expect(PosterPicker.choose(keyframes, duration: 20) == 3, "2 s is flat, 0 s black and 4 s a dip, so 6 s")
    }

    @Test func theTenPercentKeyframeIsTheFallbackWhenNothingQualifies() {
        let keyframes = Self.candidates(Array(repeating: (16, 0), count: 10))
        #expect(PosterPicker.choose(keyframes, duration: 20) == 1)
        #expect(PosterPicker.choose([], duration: 20) == nil)
    }
}
