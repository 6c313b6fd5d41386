import Foundation
import VODFFmpeg

/// The mean and spread of a picture's luma, which tell black, flat and fading pictures from real ones.
struct LumaStatistics: Sendable, Equatable {
    /// Mean luma, 0…255 in the picture's own range (16 is black in the renditions' limited range).
    var mean: Double
    /// Standard deviation of the luma: near 0 for a picture of one colour.
    var deviation: Double

    /// Measures the luma plane of an 8-bit YUV picture on a grid of about 64 × 64 samples.
    init(_ frame: Frame) {
        let width = Int(frame.width), height = Int(frame.height), stride = frame.lineSize(ofPlane: 0)
        let step = max(1, min(width, height) / 64)
        var sum = 0.0, squares = 0.0, count = 0.0
        if let plane = frame.planeData(0) {
            for y in Swift.stride(from: 0, to: height, by: step) {
                let row = plane + y * stride
                for x in Swift.stride(from: 0, to: width, by: step) {
                    let value = Double(row[x])
                    sum += value
                    squares += value * value
                    count += 1
                }
            }
        }
        mean = count > 0 ? sum / count : 0
        deviation = count > 0 ? (max(0, squares / count - mean * mean)).squareRoot() : 0
    }

    init(mean: Double, deviation: Double) {
        self.mean = mean
        self.deviation = deviation
    }
}
