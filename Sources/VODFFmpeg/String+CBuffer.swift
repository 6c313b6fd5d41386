extension String {
    /// The UTF-8 text of a NUL-terminated buffer that a C call filled.
    public init(cBuffer buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
