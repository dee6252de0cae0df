import Foundation
import Logging
import ReelModels
import ReelStore
import ServiceLifecycle

/// One attempt of one claimed job: the handler runs next to a loop that keeps the lease alive
/// and carries progress to the store; whichever ends first decides what happens to the other.
struct JobExecution {
    let worker: JobWorker
    let job: Job
    let handler: any JobHandler

    private var store: any JobStore { worker.store }
    private var configuration: JobWorkerConfiguration { worker.configuration }
    private var workerID: String { worker.configuration.workerID }

    private var jobLogger: Logger {
        var logger = worker.logger
        logger[metadataKey: "job"] = "\(job.id)"
        logger[metadataKey: "attempt"] = "\(job.attempts)/\(job.maxAttempts)"
        return logger
    }

    private enum Event: Sendable {
        case handlerFinished(Result<JobOutcome, any Error>)
        case leaseLost
        case heartbeatStopped
        case timedOut
        case deadlineStopped
    }

    private enum Ending {
        case handlerFinished(Result<JobOutcome, any Error>)
        case leaseLost
        /// Still running at `attemptTimeout`: a stuck job fails for good instead of showing
        /// "processing" forever while its heartbeat keeps the lease alive.
        case timedOut
    }

    func run() async {
        let logger = jobLogger
        // The recurring upkeep (a sweep every minute) only at debug: at info it would bury
        // the lines an operator reads, the transcodes and uploads people are waiting for.
        logger.log(level: job.kind.isMaintenance ? .debug : .info, "job started", metadata: ["kind": "\(job.kind.rawValue)"])

        let progress = LatestProgress()
        let context = JobContext(workerID: workerID, attempt: job.attempts, onProgress: { await progress.record($0) })
        let ending = await withTaskGroup(of: Event.self, returning: Ending.self) { group in
            group.addTask { [job, handler] in
                do {
                    return .handlerFinished(.success(try await cancelWhenGracefulShutdown { try await handler.run(job, context: context) }))
                } catch {
                    return .handlerFinished(.failure(error))
                }
            }
            group.addTask { await keepLease(progress: progress, logger: logger) }
            if let timeout = configuration.attemptTimeout {
                group.addTask {
                    do {
                        try await Task.sleep(for: .seconds(timeout))
                        return .timedOut
                    } catch {
                        return .deadlineStopped
                    }
                }
            }
            var ending: Ending?
            for await event in group {
                switch event {
                case .handlerFinished(let error):
                    ending = ending ?? .handlerFinished(error)
                    group.cancelAll()
                case .leaseLost:
                    // Cancel the handler, then wait for it to stop: its work is someone else's now.
                    ending = .leaseLost
                    group.cancelAll()
                case .timedOut:
                    ending = ending ?? .timedOut
                    group.cancelAll()
                case .heartbeatStopped, .deadlineStopped:
                    break
                }
            }
            return ending ?? .leaseLost
        }
        await record(ending, progress: await progress.reported, logger: logger)
    }

    /// Turns how the attempt ended into the job's next state.
    private func record(_ ending: Ending, progress: Double?, logger: Logger) async {
        let error: any Error
        switch ending {
        case .leaseLost:
            logger.warning("lease lost: the job was cancelled or another worker took it over; this attempt stopped")
            return
        case .timedOut:
            let message = "stopped: still not finished after \(String(format: "%g", configuration.attemptTimeout ?? 0)) s, so it is treated as stuck"
            logger.error("job timed out", metadata: ["error": "\(message)"])
            await write(logger) {
                try await store.fail(jobID: job.id, workerID: workerID, error: message, retryAt: nil, now: worker.now())
            }
            return
        case .handlerFinished(.success(.finished)):
            logger.info("job succeeded")
            await write(logger) { try await store.succeed(jobID: job.id, workerID: workerID, now: worker.now()) }
            return
        case .handlerFinished(.success(.runAgain(let seconds))):
            await requeue(after: seconds, logger) { runAfter, now in
                try await store.reschedule(jobID: job.id, workerID: workerID, runAfter: runAfter, progress: progress, now: now)
            }
            return
        case .handlerFinished(.success(.recur(let seconds))):
            await requeue(after: seconds, logger) { runAfter, now in
                try await store.recur(jobID: job.id, workerID: workerID, runAfter: runAfter, now: now)
            }
            return
        case .handlerFinished(.failure(let failure)):
            error = failure
        }
        if case JobFailure.invalidInput(let message) = error {
            logger.warning("job failed for good: invalid input", metadata: ["error": "\(message)"])
            await write(logger) {
                try await store.fail(jobID: job.id, workerID: workerID, error: message, retryAt: nil, now: worker.now())
            }
            return
        }
        if Task.isCancelled {
            logger.info("job cancelled; its lease is left to expire")
            return
        }
        if Task.isShuttingDownGracefully {
            logger.info("job interrupted by shutdown; released to the queue")
            await write(logger) {
                try await store.release(jobID: job.id, workerID: workerID, reason: "interrupted by shutdown", now: worker.now())
            }
            return
        }
        let message = Self.describe(error)
        let now = worker.now()
        let retryAt = now.addingTimeInterval(configuration.retry.delay(afterAttempt: job.attempts))
        logger.warning("job attempt failed", metadata: ["error": "\(message)", "retry_at": "\(retryAt)"])
        await write(logger) {
            try await store.fail(jobID: job.id, workerID: workerID, error: message, retryAt: retryAt, now: now)
        }
    }

    /// Queues the job again, claimable `seconds` from now, through `body(runAfter, now)`.
    private func requeue(after seconds: TimeInterval, _ logger: Logger, _ body: (Date, Date) async throws -> Void) async {
        let now = worker.now()
        let runAfter = now.addingTimeInterval(max(0, seconds))
        logger.debug("job runs again later", metadata: ["run_after": "\(runAfter)"])
        await write(logger) { try await body(runAfter, now) }
    }

    /// Retries a store write a few times: a busy database must not turn a finished job into a
    /// rerun. If it still fails, the lease expires and the job runs again, which is safe.
    private func write(_ logger: Logger, _ body: () async throws -> Void) async {
        for attempt in 1...3 {
            do {
                try await body()
                return
            } catch {
                if Task.isCancelled { return }
                logger.error("could not record the job's outcome", metadata: ["error": "\(error)", "try": "\(attempt)"])
                if attempt < 3 { await worker.pause() }
            }
        }
    }

    /// Extends the lease every `heartbeatInterval`, and sooner (at most every
    /// `progressInterval`) when there is new progress to show. Returns `.leaseLost` as soon as
    /// the store says the job is no longer ours; a failing heartbeat is only logged, since the
    /// lease outlives several of them.
    private func keepLease(progress: LatestProgress, logger: Logger) async -> Event {
        let clock = ContinuousClock()
        var lastBeat = clock.now
        var writtenProgress = 0.0
        while true {
            let untilHeartbeat = configuration.heartbeatInterval - Self.seconds(clock.now - lastBeat)
            let nap = max(0.01, min(configuration.progressInterval, untilHeartbeat))
            do {
                try await Task.sleep(for: .seconds(nap))
            } catch {
                return .heartbeatStopped
            }
            let latest = await progress.latest
            let heartbeatDue = Self.seconds(clock.now - lastBeat) >= configuration.heartbeatInterval
            guard heartbeatDue || latest != writtenProgress else { continue }
            do {
                let owned = try await store.heartbeat(
                    jobID: job.id, workerID: workerID, progress: latest, leaseDuration: configuration.leaseDuration,
                    now: worker.now()
                )
                guard owned else { return .leaseLost }
                if latest != writtenProgress { worker.activity?.changed() }
                lastBeat = clock.now
                writtenProgress = latest
            } catch {
                if Task.isCancelled { return .heartbeatStopped }
                logger.warning("heartbeat failed; will try again", metadata: ["error": "\(error)"])
            }
        }
    }

    static func describe(_ error: any Error) -> String {
        if let failure = error as? JobFailure { return failure.message }
        if let localized = error as? any LocalizedError, let description = localized.errorDescription { return description }
        return String(describing: error)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// The newest progress a handler reported, for the heartbeat loop to pick up.
actor LatestProgress {
    private(set) var latest: Double = 0
    /// Whether the handler reported anything: a rescheduled job keeps its stored progress
    /// unless this attempt said more.
    private(set) var reported: Double?

    func record(_ fraction: Double) {
        guard fraction.isFinite else { return }
        latest = min(1, max(0, fraction))
        reported = latest
    }
}
