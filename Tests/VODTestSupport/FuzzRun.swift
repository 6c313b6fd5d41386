import Foundation

/// The size and seed of a property-based fuzz run. CI runs the base number of cases with the fixed seeds; a
/// longer run is the same tests with `VOD_FUZZ_SCALE=N` (N times the cases) and `VOD_FUZZ_SEED=S` (other seeds).
public enum FuzzRun {
    /// `base` times the `VOD_FUZZ_SCALE` multiplier (1 when unset).
    public static func cases(_ base: Int) -> Int {
        base * max(1, Int(ProcessInfo.processInfo.environment["VOD_FUZZ_SCALE"] ?? "") ?? 1)
    }

    /// A generator for a test's fixed seed, varied by `VOD_FUZZ_SEED` (0 when unset).
    public static func generator(seed: UInt64) -> SeededGenerator {
        SeededGenerator(seed: seed ^ (UInt64(ProcessInfo.processInfo.environment["VOD_FUZZ_SEED"] ?? "") ?? 0))
    }
}
