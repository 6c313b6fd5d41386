import VODFFmpeg

/// Turns planar YUV 4:2:0 pictures, 8-bit or 10-bit, by a quarter, half or three-quarter turn clockwise, so
/// phone videos with rotation metadata play upright on every player.
enum PictureRotator {
    /// A new frame holding `source` turned `degrees` clockwise (90, 180 or 270).
    static func rotate(_ source: Frame, clockwise degrees: Int) throws -> Frame {
        let turned = degrees % 180 != 0
        let width = turned ? source.height : source.width
        let height = turned ? source.width : source.height
        let output = try Frame.video(width: width, height: height, format: source.pixelFormat)
        output.pts = source.pts
        let tenBit = source.pixelFormat == .yuv420p10le
        for plane in 0..<3 {
            let shift: Int32 = plane == 0 ? 0 : 1
            let (from, to) = (source.planeData(plane)!, output.planeData(plane)!)
            let (fromStride, toStride) = (source.lineSize(ofPlane: plane), output.lineSize(ofPlane: plane))
            let (width, height) = (Int(source.width >> shift), Int(source.height >> shift))
            if tenBit {
                rotatePlane(UInt16.self, source: from, sourceStride: fromStride, sourceWidth: width, sourceHeight: height,
                            destination: to, destinationStride: toStride, degrees: degrees)
            } else {
                rotatePlane(UInt8.self, source: from, sourceStride: fromStride, sourceWidth: width, sourceHeight: height,
                            destination: to, destinationStride: toStride, degrees: degrees)
            }
        }
        return output
    }

    /// Turns one plane of `Sample`s; strides are in bytes, as FFmpeg gives them.
    @inline(__always)
    private static func rotatePlane<Sample: FixedWidthInteger>(
        _: Sample.Type, source sourceBytes: UnsafeMutablePointer<UInt8>, sourceStride byteStride: Int, sourceWidth: Int,
        sourceHeight: Int, destination destinationBytes: UnsafeMutablePointer<UInt8>, destinationStride destinationByteStride: Int,
        degrees: Int
    ) {
        let size = MemoryLayout<Sample>.size
        let source = UnsafeMutableRawPointer(sourceBytes).assumingMemoryBound(to: Sample.self)
        let destination = UnsafeMutableRawPointer(destinationBytes).assumingMemoryBound(to: Sample.self)
        let sourceStride = byteStride / size
        let destinationStride = destinationByteStride / size
        switch degrees {
        case 90:
            for row in 0..<sourceWidth {
                let line = destination + row * destinationStride
                for column in 0..<sourceHeight {
                    line[column] = source[(sourceHeight - 1 - column) * sourceStride + row]
                }
            }
        case 270:
            for row in 0..<sourceWidth {
                let line = destination + row * destinationStride
                for column in 0..<sourceHeight {
                    line[column] = source[column * sourceStride + (sourceWidth - 1 - row)]
                }
            }
        default:
            for row in 0..<sourceHeight {
                let line = destination + row * destinationStride
                let from = source + (sourceHeight - 1 - row) * sourceStride
                for column in 0..<sourceWidth {
                    line[column] = from[sourceWidth - 1 - column]
                }
            }
        }
    }
}
