import VODModel

extension VODClient {
    /// The status events of every title, or of item `mediaID`, from the next one on, or from the one after
    /// `lastEventID` (events are kept a week).
    ///
    /// ```swift
    /// for try await event in client.events(mediaID: 7) {
    ///     print(event.type, event.media.progress)
    /// }
    /// ```
    public func events(mediaID: Int64? = nil, after lastEventID: Int64? = nil) -> StatusEvents {
        StatusEvents(client: self, path: mediaID.map { "/api/media/\($0)/events" } ?? "/api/events", lastEventID: lastEventID)
    }

    /// Waits until item `id` is ready and returns it; throws `VODClientError.mediaFailed` with the server's reason
    /// when its transcode fails, and `VODClientError.timedOut` after `timeout`.
    ///
    /// It follows the item's status events, and asks for the item every `Options.pollInterval` instead when the
    /// server has no event stream or the stream fails.
    public func waitUntilReady(id: Int64, timeout: Duration) async throws -> Media {
        try await withThrowingTaskGroup(of: Media.self) { group in
            group.addTask { try await self.followUntilReady(id: id) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw VODClientError.timedOut(id: id, after: timeout)
            }
            defer { group.cancelAll() }
            guard let media = try await group.next() else { throw CancellationError() }
            return media
        }
    }

    private func followUntilReady(id: Int64) async throws -> Media {
        var events: StatusEvents.AsyncIterator? = self.events(mediaID: id).makeAsyncIterator()
        do {
            try await events?.connect()
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            events = nil
        }
        var media = try await get(id: id)
        while try !Self.isReady(media) {
            if let event = try await nextEvent(&events), event.type != .deleted {
                media = event.media
            } else {
                if events == nil { try await Task.sleep(for: options.pollInterval) }
                media = try await get(id: id)
            }
        }
        return media
    }

    /// The next event of `events`; nil, and `events` nil from then on, when the stream fails.
    private func nextEvent(_ events: inout StatusEvents.AsyncIterator?) async throws -> StatusEvent? {
        do {
            guard let event = try await events?.next() else { return nil }
            return event
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            events = nil
            return nil
        }
    }

    /// Whether `media` is ready; throws when it failed.
    private static func isReady(_ media: Media) throws -> Bool {
        if media.status == .failed {
            throw VODClientError.mediaFailed(id: media.id, reason: media.error ?? "the server gave no reason")
        }
        return media.status == .ready
    }
}
