import Foundation

/// Serialises the requests that change one upload: a second PATCH waits for the first to end
/// (then usually finds the offset moved and gets 409), and gives up with 423 after `wait`, so
/// a stalled connection cannot hold a client's retry forever. Per process: across nodes the
/// bucket's conditional writes decide (`S3UploadStorage`: two PATCHes at one offset cannot both
/// store their first part), so no routing by upload id is needed.
actor UploadLocks {
    private var held: Set<String> = []
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    func withLock<T: Sendable>(_ id: String, wait: Duration, _ body: @Sendable () async throws -> T) async throws -> T {
        try await acquire(id, wait: wait)
        do {
            let result = try await body()
            release(id)
            return result
        } catch {
            release(id)
            throw error
        }
    }

    private func acquire(_ id: String, wait: Duration) async throws {
        let deadline = ContinuousClock.now + wait
        while held.contains(id) {
            guard ContinuousClock.now < deadline else {
                throw APIError.locked("another request is writing this upload; try again in a moment")
            }
            // Woken by the holder's release, or by the timer below to re-check the deadline.
            await withCheckedContinuation { continuation in
                waiters[id, default: []].append(continuation)
                Task { [weak self] in
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    await self?.wakeAll(id)
                }
            }
        }
        held.insert(id)
    }

    private func release(_ id: String) {
        held.remove(id)
        wakeAll(id)
    }

    private func wakeAll(_ id: String) {
        let pending = waiters.removeValue(forKey: id) ?? []
        pending.forEach { $0.resume() }
    }
}
