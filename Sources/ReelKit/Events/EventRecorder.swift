import Foundation
import ReelModels

/// Events recorded together, as the offline queue keeps them. Every batch has its own target, so
/// no batch replaces another; the batch still being filled is rewritten in place as it grows.
public struct EventBatch: QueuedChange {
    public var id: String
    public var events: [WatchEvent]

    public init(id: String = UUID().uuidString.lowercased(), events: [WatchEvent]) {
        self.id = id
        self.events = events
    }

    public var target: String { "events:\(id)" }
}

/// When recorded events are sent: as soon as `batchSize` are waiting, or when the first one has
/// waited `flushInterval` (the web client's numbers: 25 events, 10 s).
public struct EventRecorderPolicy: Sendable, Equatable {
    public var batchSize: Int
    public var flushInterval: TimeInterval
    /// The longest pause after refusals for rate (429) in a row that carried no `Retry-After`
    /// (those wait 1 s, 2 s, 4 s, …).
    public var maxBackoff: TimeInterval
    /// The most events kept while they cannot be sent (weeks offline); beyond it the oldest
    /// batches go first, because a recent signal says more about the person than an old one.
    public var maxQueuedEvents: Int

    public init(batchSize: Int = 25, flushInterval: TimeInterval = 10, maxBackoff: TimeInterval = 300, maxQueuedEvents: Int = 5000) {
        self.batchSize = max(1, min(batchSize, APIEventBatch.maxCount))
        self.flushInterval = max(0, flushInterval)
        self.maxBackoff = max(1, maxBackoff)
        self.maxQueuedEvents = max(self.batchSize, maxQueuedEvents)
    }
}

/// What one flush achieved.
public struct EventDelivery: Sendable, Equatable {
    /// Events the server stored now.
    public var accepted = 0
    /// Events it had already (a batch resent after its answer was lost).
    public var duplicates = 0
    /// Events refused for good (a post deleted meanwhile, a clock far off), or dropped because
    /// the queue was full: they are not sent again.
    public var dropped = 0
    /// The last refusal, for a log.
    public var refusal: ReelAPIError?
    /// Events still queued after this flush.
    public var waiting = 0
    /// Why sending stopped before the queue was empty: offline, a server error, a 429, signed out.
    public var stoppedBy: ReelAPIError?
    /// While backing off after a 429: nothing is sent before this time.
    public var retryAt: Date?

    public init() {}
}

/// Batches watch events (`WatchEvent`) and delivers them through a durable `OfflineQueue`: each
/// event is written to the queue file when it is recorded, so nothing is lost when the app is
/// killed, and whatever could not be sent (offline, server trouble) goes with a later flush,
/// after a relaunch too. Resending is safe: the server counts an `event_id` it has once.
///
/// A batch the server refuses (400) loses only the event it names (`events[3]: …`), and the
/// rest is sent again; a refusal naming none drops the batch. A 429 pauses sending for its
/// `Retry-After` (else an exponential backoff).
public actor EventRecorder {
    public let client: ReelClient
    public let policy: EventRecorderPolicy
    let queue: OfflineQueue<EventBatch>
    private let clock: any ReelClock
    /// The batch being filled: in the queue file already, but not sent until it is sealed.
    private var open: EventBatch?
    private var openedAt: Date?
    private var openSaved = true
    /// Sealed batches whose write failed (a full disk): kept in memory, sent after the queued ones.
    private var unsaved: [EventBatch] = []
    private var sending = false
    private var backoffSteps = 0
    private var retryAt: Date?
    private var discarded = 0

    public init(client: ReelClient, queue: OfflineQueue<EventBatch>, policy: EventRecorderPolicy = EventRecorderPolicy(), clock: any ReelClock = SystemClock()) {
        self.client = client
        self.queue = queue
        self.policy = policy
        self.clock = clock
    }

    public init(
        client: ReelClient, fileSystem: any CacheFileSystem, path: String = "event-queue.json",
        policy: EventRecorderPolicy = EventRecorderPolicy(), clock: any ReelClock = SystemClock()
    ) {
        self.init(client: client, queue: OfflineQueue(fileSystem: fileSystem, path: path), policy: policy, clock: clock)
    }

    /// Every event not yet confirmed by the server, oldest first.
    public var pending: [WatchEvent] {
        get async {
            var batches = await sealedBatches()
            if let open { batches.append(open) }
            return batches.flatMap(\.events)
        }
    }

    /// Records an event about `postID` happening now.
    @discardableResult
    public func record(
        _ type: EventType, postID: Int64, watchedMs: Int? = nil, durationMs: Int? = nil, loops: Int? = nil, value: Int? = nil
    ) async -> EventDelivery? {
        await record(WatchEvent(postID: postID, type: type, at: clock.now(), watchedMs: watchedMs, durationMs: durationMs, loops: loops, value: value))
    }

    /// Writes `event` to the queue; when that fills the batch it is sent, and the delivery is returned.
    @discardableResult
    public func record(_ event: WatchEvent) async -> EventDelivery? {
        var batch = open ?? EventBatch(events: [])
        if open == nil { openedAt = clock.now() }
        batch.events.append(event)
        open = batch
        do {
            try await queue.enqueue(batch)
            openSaved = true
        } catch {
            openSaved = false
        }
        return batch.events.count >= policy.batchSize ? await flush() : nil
    }

    /// The clock's call (an app's timer, or `runPeriodicFlush`): sends the open batch once its
    /// first event has waited `flushInterval`, and batches left by an earlier failure.
    @discardableResult
    public func tick() async -> EventDelivery? {
        let now = clock.now()
        let openIsDue = openedAt.map { now.timeIntervalSince($0) >= policy.flushInterval } ?? false
        let backingOff = retryAt.map { now < $0 } ?? false
        if openIsDue { return await flush() }
        guard !backingOff, !(await sealedBatches()).isEmpty else { return nil }
        return await flush()
    }

    /// Ticks every `flushInterval` until the task running it is cancelled.
    public func runPeriodicFlush() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(max(1, policy.flushInterval)))
            await tick()
        }
    }

    /// Seals the open batch and sends everything queued (call it when the app goes to the
    /// background, at launch for what an earlier run left, and when the network comes back).
    @discardableResult
    public func flush() async -> EventDelivery {
        await seal()
        return await sendSealed()
    }

    private func seal() async {
        guard let batch = open else { return }
        if !openSaved { unsaved.append(batch) }
        open = nil
        openedAt = nil
        openSaved = true
        await trimToLimit()
    }

    /// Queued batches that may go now (everything but the one being filled), oldest first.
    private func sealedBatches() async -> [EventBatch] {
        // A batch in `unsaved` may have an older copy in the file (its last write failed).
        let inMemory = Set(unsaved.map(\.id) + [open?.id].compactMap { $0 })
        return await queue.pending.filter { !inMemory.contains($0.id) } + unsaved
    }

    private func trimToLimit() async {
        var batches = await sealedBatches()
        var total = batches.reduce(0) { $0 + $1.events.count } + (open?.events.count ?? 0)
        while total > policy.maxQueuedEvents, let oldest = batches.first {
            total -= oldest.events.count
            discarded += oldest.events.count
            await remove(oldest)
            batches.removeFirst()
        }
    }

    private func sendSealed() async -> EventDelivery {
        var report = EventDelivery()
        report.dropped = discarded
        discarded = 0
        if let retryAt, clock.now() < retryAt {
            report.retryAt = retryAt
            report.waiting = await pending.count
            return report
        }
        // One sender at a time: batches sealed meanwhile are picked up before the loop ends.
        guard !sending else {
            report.waiting = await pending.count
            return report
        }
        sending = true
        defer { sending = false }
        var sent = Set<String>()
        // A batch that is still first after being sent could not be removed (a failing disk):
        // stop rather than send it forever; the server would count it as duplicates anyway.
        while let batch = await sealedBatches().first, sent.insert(batch.id).inserted {
            guard await send(batch, into: &report) else { break }
            await remove(batch)
        }
        report.waiting = await pending.count
        return report
    }

    /// Sends one batch; false when it must stay queued (and sending stops).
    private func send(_ batch: EventBatch, into report: inout EventDelivery) async -> Bool {
        var events = batch.events
        while !events.isEmpty {
            do {
                let receipt = try await client.sendEvents(events)
                report.accepted += receipt.accepted
                report.duplicates += receipt.duplicates
                backoffSteps = 0
                retryAt = nil
                return true
            } catch {
                switch error {
                case .rateLimited(let seconds):
                    let wait: TimeInterval
                    if let seconds {
                        wait = TimeInterval(max(0, seconds))
                    } else {
                        backoffSteps += 1
                        wait = min(policy.maxBackoff, pow(2, Double(backoffSteps - 1)))
                    }
                    retryAt = clock.now().addingTimeInterval(wait)
                    report.retryAt = retryAt
                    report.stoppedBy = error
                    return false
                case .offline, .server, .unauthorized:
                    report.stoppedBy = error
                    return false
                case .rejected(400, _, let message):
                    report.refusal = error
                    // Nothing of a refused batch was stored: without the event it names, the
                    // rest may go; a refusal naming none drops the batch.
                    guard let index = Self.refusedIndex(in: message), events.indices.contains(index) else {
                        report.dropped += events.count
                        return true
                    }
                    events.remove(at: index)
                    report.dropped += 1
                case .rejected, .notFound, .forbidden, .expired, .decoding:
                    // Cannot get better by resending (or, for `.decoding`, was probably stored).
                    report.refusal = error
                    report.dropped += events.count
                    return true
                }
            }
        }
        return true
    }

    private func remove(_ batch: EventBatch) async {
        unsaved.removeAll { $0.id == batch.id }
        try? await queue.cancel(matching: batch)
    }

    /// The index in a refusal such as `events[3] (view, event_id …): watch ratio 400 is above 50`.
    static func refusedIndex(in message: String) -> Int? {
        guard let start = message.range(of: "events[") else { return nil }
        let digits = message[start.upperBound...].prefix { $0.isNumber }
        guard !digits.isEmpty, message[start.upperBound...].dropFirst(digits.count).first == "]" else { return nil }
        return Int(digits)
    }
}
