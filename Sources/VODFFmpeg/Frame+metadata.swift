import CFFmpeg

extension Frame {
    /// The number a filter wrote into the frame's metadata under `key`, such as ebur128's `lavfi.r128.I`.
    public func metadataNumber(_ key: String) -> Double? {
        guard let entry = av_dict_get(pointer.pointee.metadata, key, nil, 0), let value = entry.pointee.value else {
            return nil
        }
        return Double(String(cString: value))
    }
}
