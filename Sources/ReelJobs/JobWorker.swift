import Foundation
import Logging
import ReelModels
import ReelStore
import ServiceLifecycle

/// Runs queued jobs from a `JobStore` until shut down, as a `Service`.
///
/// `concurrency` slots each loop: claim a job, run it to an outcome, claim the next; an idle
/// slot waits `pollInterval`. Durability comes from the store: a claim is a lease that the
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
    let handlers: [JobKind: any JobHandler]
    let configuration: JobWorkerConfiguration
    let logger: Logger
    let now: @Sendable () -> Date

    /// If two handlers claim the same kind, the first one is used.
    public init(
        store: any JobStore, handlers: [any JobHandler], configuration: JobWorkerConfiguration, logger: Logger,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
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
        logger.info("job worker started", metadata: ["slots": "\(slots)", "kinds": "\(kinds.map(\.rawValue))"])
        await withDiscardingTaskGroup { group in
            for _ in 0..<slots {
                group.addTask { await runSlot() }
            }
        }
        logger.info("job worker stopped")
    }

    private var isStopping: Bool { Task.isCancelled || Task.isShuttingDownGracefully }

    /// One job at a time: claim, run, record, repeat until shutdown or cancellation.
    private func runSlot() async {
        while !isStopping {
            do {
                if try await !runOnce() { await pause() }
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

    /// Waits `pollInterval`, or less if a shutdown begins meanwhile.
    func pause() async {
        let interval = configuration.pollInterval
        try? await cancelWhenGracefulShutdown {
            try await Task.sleep(for: .seconds(interval))
        }
    }
}
