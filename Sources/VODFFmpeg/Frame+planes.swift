import CFFmpeg

/// The picture planes of a video frame, for code that reads or writes its pixels itself.
extension Frame {
    /// The data of picture plane `index` (0 is luma, 1 and 2 chroma in planar YUV), nil when there is none.
    public func planeData(_ index: Int) -> UnsafeMutablePointer<UInt8>? {
        withUnsafeBytes(of: pointer.pointee.data) {
            $0.load(fromByteOffset: index * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                    as: UnsafeMutablePointer<UInt8>?.self)
        }
    }

    /// The bytes from one line of picture plane `index` to the next.
    public func lineSize(ofPlane index: Int) -> Int {
        withUnsafeBytes(of: pointer.pointee.linesize) {
            Int($0.load(fromByteOffset: index * MemoryLayout<Int32>.stride, as: Int32.self))
        }
    }
}
