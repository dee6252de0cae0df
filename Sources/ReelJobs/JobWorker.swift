import Foundation
import Logging
import ReelModels
import ReelStore
import ServiceLifecycle

/// Runs queued jobs from a `JobStore` until shut down, as a `Service`.
///
/// `concurrency` slots each loop: claim a job, run it to an outcome, claim the next; an idle
/// slot waits `pollInterval`, or — when the store can say that work arrived (`wakeups`:
/// PostgreSQL's `LISTEN`, from every node) — until it does, polling only every
/// `wakeupPollInterval` for what sends no wake-up (a retry coming due, an expired lease).
/// Durability comes from the store: a claim is a lease that the
/// running attempt keeps extending, so a worker that dies (or hangs) loses the job to the next
/// worker when its lease expires.
///
/// Shutdown:
/// - Graceful shutdown (inside a `ServiceGroup`): no new claims; running handlers are
///   cancelled and their jobs released to the queue at once without counting the attempt
///   (`JobStore.release`, recorded as "interrupted by shutdown"), so the next worker to start
///   picks them up immediately instead of waiting for the lease to expire. Then `run()` returns.
/// - Task cancellation (e.g. the caller stops waiting): handlers are cancelled too, but a
///   cancelled task cannot write to the store, so their leases are left to expire; the jobs
///   are then reclaimed and the interrupted attempt counts.
public struct JobWorker: Service {
    let store: any JobStore
    let wakeups: (any JobWakeupSource)?
    let signal = WakeSignal()
    /// Told of each claim, progress write and outcome, for waiters in this process.
    let activity: JobActivity?
    let handlers: [JobKind: any JobHandler]
    let configuration: JobWorkerConfiguration
    let logger: Logger
    let now: @Sendable () -> Date

    /// If two handlers claim the same kind, the first one is used. Without `wakeups` the queue
    /// is polled every `pollInterval`.
    public init(
        store: any JobStore, wakeups: (any JobWakeupSource)? = nil, activity: JobActivity? = nil, handlers: [any JobHandler],
        configuration: JobWorkerConfiguration, logger: Logger, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.wakeups = wakeups
        self.activity = activity
        self.handlers = Dictionary(handlers.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        self.configuration = configuration
        var logger = logger
        logger[metadataKey: "worker"] = "\(configuration.workerID)"
        self.logger = logger
        self.now = now
    }

    var kinds: [JobKind] { handlers.keys.sorted { $0.rawValue < $1.rawValue } }

    public func run() async throws {
        let slots = max(1, configuration.concurrency)
        logger.info("job worker started", metadata: [
            "slots": "\(slots)", "kinds": "\(kinds.map(\.rawValue))", "wakeups": "\(wakeups == nil ? "no (polling)" : "yes")",
        ])
        await withTaskGroup(of: Void.self) { listener in
            if let wakeups { listener.addTask { await listen(to: wakeups) } }
            await withDiscardingTaskGroup { group in
                for _ in 0..<slots {
                    group.addTask { await runSlot() }
                }
            }
            // The slots have stopped: nothing waits for wake-ups any more.
            listener.cancelAll()
        }
        logger.info("job worker stopped")
    }

    private var isStopping: Bool { Task.isCancelled || Task.isShuttingDownGracefully }

    /// One job at a time: claim, run, record, repeat until shutdown or cancellation.
    private func runSlot() async {
        while !isStopping {
            let seen = signal.current
            do {
                if try await !runOnce() { await idle(after: seen) }
            } catch {
                if !isStopping {
                    logger.error("could not claim a job; trying again", metadata: ["error": "\(error)"])
                }
                await pause()
            }
        }
    }

    /// Claims one due job of this worker's kinds and runs that attempt to its outcome; false
    /// when none was due. What `run()` does in each slot, and what a test drives step by step
    /// (with the `now` it gave the worker).
    @discardableResult
    public func runOnce() async throws -> Bool {
        let job = try await store.claim(
            workerID: configuration.workerID, kinds: kinds, leaseDuration: configuration.leaseDuration, now: now()
        )
        guard let job else { return false }
        activity?.changed()
        defer { activity?.changed() }
        guard let handler = handlers[job.kind] else {
            // Only our kinds are claimed, so this is a bug; fail the job rather than loop on it.
            try? await store.fail(
                jobID: job.id, workerID: configuration.workerID, error: "no handler for \(job.kind.rawValue) jobs",
                retryAt: nil, now: now()
            )
            return true
        }
        await JobExecution(worker: self, job: job, handler: handler).run()
        return true
    }

    /// An idle slot's wait: until a wake-up for this worker's kinds later than `seen`, or
    /// `wakeupPollInterval` (the slow fallback poll) — `pollInterval` while the store is not
    /// listening (no wake-ups, or the subscription lost) — or until a shutdown begins.
    func idle(after seen: UInt64) async {
        guard wakeups != nil else { return await pause() }
        let signal = signal
        let interval = signal.isListening ? configuration.wakeupPollInterval : configuration.pollInterval
        await cancelWhenGracefulShutdown {
            await signal.wait(after: seen, atMost: .seconds(interval))
        }
    }

    /// Keeps the store's wake-ups coming for as long as the worker runs: a lost subscription
    /// (a dropped connection, a restarted database) is logged and made again after
    /// `wakeupPollInterval`, the slots polling at `pollInterval` meanwhile. A subscription that
    /// could not be made at all (the database slow to answer at start-up) is tried again sooner,
    /// after 1, 2, 4 … seconds up to that interval, so one slow connect does not leave a worker
    /// on the slow poll for the whole interval.
    private func listen(to wakeups: any JobWakeupSource) async {
        let signal = signal
        let kinds = Set(kinds)
        var retry: TimeInterval = 1
        while !Task.isCancelled {
            do {
                try await wakeups.listenForJobs(listening: {
                    signal.isListening = true
                    signal.wake()  // what arrived before the subscription: look once
                }, wake: { kind in
                    if kinds.contains(kind) { signal.wake() }
                })
            } catch {
                if !Task.isCancelled {
                    logger.warning("lost the job wake-ups; polling until they are back", metadata: ["error": "\(error)"])
                }
            }
            let subscribed = signal.isListening  // set by `listening` if the subscription was made
            signal.isListening = false
            signal.wake()  // slots waiting out the slow poll go back to the usual pace now
            guard !Task.isCancelled else { return }
            let interval = max(1, configuration.wakeupPollInterval)
            if subscribed {
                retry = 1
                try? await Task.sleep(for: .seconds(interval))
            } else {
                try? await Task.sleep(for: .seconds(min(retry, interval)))
                retry = min(retry * 2, interval)
            }
        }
    }

    /// Waits `pollInterval`, or less if a shutdown begins meanwhile.
    func pause() async {
        let interval = configuration.pollInterval
        try? await cancelWhenGracefulShutdown {
            try await Task.sleep(for: .seconds(interval))
        }
    }
}
