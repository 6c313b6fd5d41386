import HTTPTypes

extension WriteProtection {
    /// Whether a request with `fields` may see private titles without a playback token: in their listing, as
    /// `GET /api/media/:id` and in the event feeds. Only a request whose `X-API-Key` is one of the keys may; with
    /// no key configured, no request may (a web page of any origin may read this server, so open writes do not
    /// open private titles to it).
    func admitsPrivateReads(_ fields: HTTPFields) -> Bool {
        guard !keyDigests.isEmpty, let key = fields[.apiKey] else { return false }
        return accepts(key: key)
    }
}
