import CFFmpeg

/// Which field of an interlaced picture is shown first.
public enum FieldOrder: Sendable, Equatable {
    case topFirst
    case bottomFirst

    /// The display order of FFmpeg's field order, or nil for progressive or unknown.
    init?(_ order: AVFieldOrder) {
        switch order {
        case AV_FIELD_TT, AV_FIELD_BT: self = .topFirst
        case AV_FIELD_BB, AV_FIELD_TB: self = .bottomFirst
        default: return nil
        }
    }
}
