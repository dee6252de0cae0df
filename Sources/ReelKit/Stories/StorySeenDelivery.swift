import Foundation
import ReelModels

/// Story items seen but not yet confirmed by the server, as the offline queue keeps them. One
/// entry that grows: a newer batch replaces it with the union (the seen route is idempotent,
/// so sending an id twice is harmless and one request carries everything after being offline).
public struct StorySeenBatch: QueuedChange {
    public var itemIDs: [Int64]

    public init(itemIDs: [Int64]) { self.itemIDs = itemIDs }

    public var target: String { "story-seen" }
}

/// When seen items are sent: at once when `batchSize` are waiting, else after `quietPeriod`
/// without a new one (a person tapping through stories sends one request, not one per item),
/// and always when the player closes.
public struct StorySeenPolicy: Sendable, Equatable {
    public var batchSize: Int
    public var quietPeriod: TimeInterval

    public init(batchSize: Int = 20, quietPeriod: TimeInterval = 3) {
        self.batchSize = max(1, min(batchSize, ReelClient.storySeenBatchLimit))
        self.quietPeriod = max(0, quietPeriod)
    }
}

/// The seen items waiting for the policy to send them. Plain value: the session holds it on
/// the main actor and asks it on every tick of its clock.
struct StorySeenBuffer {
    let policy: StorySeenPolicy
    private(set) var ids: [Int64] = []
    private var lastAdded: Date?

    init(policy: StorySeenPolicy) { self.policy = policy }

    /// Returns true when the batch is full and should go now.
    mutating func add(_ id: Int64, at now: Date) -> Bool {
        if !ids.contains(id) { ids.append(id) }
        lastAdded = now
        return ids.count >= policy.batchSize
    }

    func isDue(at now: Date) -> Bool {
        guard !ids.isEmpty, let lastAdded else { return false }
        return now.timeIntervalSince(lastAdded) >= policy.quietPeriod
    }

    mutating func take() -> [Int64] {
        defer { ids = [] }
        return ids
    }
}

/// Delivers seen batches through a durable `OfflineQueue`: every batch is written to the queue
/// file first, then the queue is sent; without a connection it stays there, and `replay()` (or
/// the next batch) sends it later, after a relaunch too.
public actor StorySeenDelivery {
    public enum Outcome: Sendable, Equatable {
        /// Nothing was waiting.
        case nothingToSend
        /// The server took every queued id (`accepted` + `ignored` of all requests).
        case sent(APIStorySeenResponse)
        /// No connection (or a busy server): `waiting` ids stay queued for a replay.
        case queued(waiting: Int)
        /// The server refused the batch for good (it cannot get better by resending): dropped.
        case refused(ReelAPIError)
    }

    let client: ReelClient
    let queue: OfflineQueue<StorySeenBatch>
    /// Ids whose batch could not be written to the queue file (a full disk): kept in memory
    /// and merged into the next batch instead of being lost at once.
    private var unsaved: [Int64] = []
    private var sending = false

    public init(client: ReelClient, queue: OfflineQueue<StorySeenBatch>) {
        self.client = client
        self.queue = queue
    }

    public init(client: ReelClient, fileSystem: any CacheFileSystem, path: String = "story-seen-queue.json") {
        self.init(client: client, queue: OfflineQueue(fileSystem: fileSystem, path: path))
    }

    /// Ids waiting to be sent.
    public var pending: [Int64] {
        get async { Self.union(await queue.pending.flatMap(\.itemIDs), unsaved) }
    }

    /// Queues `ids` and sends whatever is queued.
    @discardableResult
    public func deliver(_ ids: [Int64]) async -> Outcome {
        let merged = Self.union(await queue.pending.flatMap(\.itemIDs), unsaved + ids)
        guard !merged.isEmpty else { return .nothingToSend }
        do {
            try await queue.enqueue(StorySeenBatch(itemIDs: merged))
            unsaved = []
        } catch {
            unsaved = merged
        }
        return await replay()
    }

    /// Sends what is queued (after the network comes back, or at launch).
    @discardableResult
    public func replay() async -> Outcome {
        // One sender at a time: a batch added meanwhile replaces the queued one, and the
        // running loop picks it up before it stops.
        guard !sending else { return .queued(waiting: await pending.count) }
        sending = true
        defer { sending = false }
        var total = APIStorySeenResponse(accepted: 0, ignored: 0)
        var sentAny = false
        while let batch = await nextBatch() {
            do {
                for start in stride(from: 0, to: batch.itemIDs.count, by: ReelClient.storySeenBatchLimit) {
                    let chunk = Array(batch.itemIDs[start..<min(start + ReelClient.storySeenBatchLimit, batch.itemIDs.count)])
                    let answer = try await client.markStoriesSeen(chunk)
                    total.accepted += answer.accepted
                    total.ignored += answer.ignored
                }
                sentAny = true
                try await remove(batch)
            } catch let error as ReelAPIError where !error.isTransient {
                try? await remove(batch)
                return .refused(error)
            } catch {
                return .queued(waiting: await pending.count)
            }
        }
        return sentAny ? .sent(total) : .nothingToSend
    }

    private func nextBatch() async -> StorySeenBatch? {
        if let queued = await queue.pending.first { return queued }
        guard !unsaved.isEmpty else { return nil }
        return StorySeenBatch(itemIDs: unsaved)
    }

    private func remove(_ batch: StorySeenBatch) async throws {
        if batch.itemIDs == unsaved {
            unsaved = []
        } else {
            try await queue.removeFirst(ifEqualTo: batch)
        }
    }

    static func union(_ first: [Int64], _ second: [Int64]) -> [Int64] {
        var seen = Set<Int64>()
        return (first + second).filter { seen.insert($0).inserted }
    }
}
