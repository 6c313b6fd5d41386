/// Which picture each rung is scaled from: the decoded source, or a larger rung's already scaled picture.
///
/// Scaling 720p from the 1080p picture instead of from a 4k source reads a quarter of the pixels for the same
/// result: PSNR against the source scaled straight to 720p stays within a few hundredths of a dB (see
/// BENCHMARKS.md). Only rungs scaled from the source feed others, so every picture is at most two scalings
/// away from the source, and a feeding picture is at least `minimumRatio` times the fed one on both sides. A
/// rung at the source's own size feeds nobody: its thread is the busiest, and its picture is the source's.
enum ScaleCascade {
    /// How much larger, on both sides, a picture must be to feed a smaller rung.
    static let minimumRatio = 1.25

    /// For each rung of `plan`, the index of the rung whose picture it is scaled from, or nil for the source;
    /// sizes are display sizes, as in the plan.
    static func feeders(of plan: [PlannedRung], sourceWidth: Int, sourceHeight: Int) -> [Int?] {
        var feeders = [Int?](repeating: nil, count: plan.count)
        var roots: [Int] = []
        for index in plan.indices.sorted(by: { plan[$0].width * plan[$0].height > plan[$1].width * plan[$1].height }) {
            let rung = plan[index]
            guard rung.width != sourceWidth || rung.height != sourceHeight else { continue }
            feeders[index] = roots.last { root in
                Double(plan[root].width) >= Double(rung.width) * minimumRatio
                    && Double(plan[root].height) >= Double(rung.height) * minimumRatio
            }
            if feeders[index] == nil { roots.append(index) }
        }
        return feeders
    }
}
