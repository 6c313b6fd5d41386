/// The shape of a coded sample: `width:height`, 1:1 for square pixels.
public struct SampleAspectRatio: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The horizontal part, sar_width.
    public let width: Int
    /// The vertical part, sar_height.
    public let height: Int

    /// A sample aspect ratio of `width`:`height`.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Whether the samples are square, such as 1:1 or 45:45.
    public var isSquare: Bool { width == height }

    public var description: String { "\(width):\(height)" }
}
