import Foundation

extension TranscodeJob {
    /// `plan` under the title's rate control: every rung at its bitrate (`RateControl.fixed`), or at the CRF
    /// `options.crf` sets, else at the one `QualityAnalysis` measures for the source; with that analysis, when
    /// it ran. `rotation` and `duration` are the source's (`analysis(of:rotation:duration:)`).
    func rateControlled(_ plan: [PlannedRung], rotation: Int, duration: Double?) throws -> (plan: [PlannedRung], analysis: QualityChoice?) {
        guard options.rateControl == .quality else { return (plan.map { $0.at(crf: nil) }, nil) }
        guard let analyse = analysis(of: plan, rotation: rotation, duration: duration) else {
            return (plan.map { $0.at(crf: options.crf) }, nil)
        }
        let analysis = try analyse()
        return (plan.map { $0.at(crf: analysis.crf) }, analysis)
    }

    /// For a title published as it grows whose CRF an analysis chooses: the analysis, started on a thread of its
    /// own, and `plan` at `RateControl.defaultCRF` until it is done (`PendingQuality`). Nil otherwise.
    func pendingQuality(of plan: [PlannedRung], rotation: Int, duration: Double?) -> (plan: [PlannedRung], pending: PendingQuality)? {
        guard let analyse = analysis(of: plan, rotation: rotation, duration: duration) else { return nil }
        return (plan.map { $0.at(crf: RateControl.defaultCRF) }, PendingQuality(analyse))
    }

    /// The analysis that chooses the title's CRF on the smallest rung of `plan`, for a source of about
    /// `duration` seconds whose pictures turn by `rotation` degrees; nil when the options choose no CRF per title.
    private func analysis(of plan: [PlannedRung], rotation: Int, duration: Double?) -> (@Sendable () throws -> QualityChoice)? {
        guard options.rateControl == .quality, options.crf == nil,
              let smallest = plan.min(by: { $0.width * $0.height < $1.width * $1.height }) else { return nil }
        let analysis = QualityAnalysis(input: input, options: options, cancellation: cancellation)
        return { try analysis.choose(rung: smallest, rotation: rotation, duration: duration ?? 0) }
    }
}
