import Foundation
import ReelGeneration
import ReelJobs
import ReelModels

/// One provider call in a generation's life, as a function of where it is and what the
/// provider says: the generation to save, and what its job does next. When to look again
/// comes from the poll schedule; retries, backoff, the time limit and cancellation are the job
/// queue's (`ReelJobs`), so a failure here is a `JobFailure` like any job's.
public struct GenerationStep: Sendable {
    public var schedule: PollSchedule

    public init(schedule: PollSchedule = PollSchedule()) {
        self.schedule = schedule
    }

    /// The generation after the call, and the job's outcome: `.runAgain` to poll later,
    /// `.finished` when the clip is in `resultFile`, or a failure (`.invalidInput`: the
    /// provider refused, nothing to retry; `.transient`: worth another attempt).
    public struct Result: Sendable {
        public var generation: Generation
        public var outcome: Swift.Result<JobOutcome, JobFailure>
    }

    /// Advances `generation` by one provider call. `resultFile` is where a finished clip goes.
    public func advance(_ generation: Generation, provider: any GenerationProvider, resultFile: URL, now: Date) async -> Result {
        var next = generation
        next.updatedAt = now
        guard let jobID = generation.providerJobID, generation.state == .running else {
            return await submit(next, provider: provider, now: now)
        }
        do {
            switch try await provider.status(of: jobID) {
            case .queued:
                return polledAgain(next, progress: nil)
            case .running(let fraction):
                return polledAgain(next, progress: fraction)
            case .completed:
                try await provider.download(jobID, to: resultFile)
                next.state = .ready
                next.progress = 1
                return Result(generation: next, outcome: .success(.finished))
            case .failed(let error):
                return Result(generation: next, outcome: .failure(.invalidInput(Self.reason(error))))
            }
        } catch .notFound {
            // The provider forgot the job (a local render lost in a restart): submit it again on
            // the next attempt.
            next.providerJobID = nil
            next.state = .queued
            return Result(generation: next, outcome: .failure(.transient("the provider lost the job")))
        } catch let error where error.isRetryable {
            return Result(generation: next, outcome: .failure(.transient(Self.reason(error))))
        } catch {
            return Result(generation: next, outcome: .failure(.invalidInput(Self.reason(error))))
        }
    }

    private func submit(_ generation: Generation, provider: any GenerationProvider, now: Date) async -> Result {
        var next = generation
        next.attempts += 1
        next.polls = 0
        let request = GenerationRequest(
            prompt: generation.prompt, style: GenerationStyle(rawValue: generation.style) ?? .aurora,
            seconds: generation.seconds, width: generation.width, height: generation.height
        )
        do {
            next.providerJobID = try await provider.submit(request)
            next.state = .running
            next.submittedAt = now
            next.progress = 0
            return Result(generation: next, outcome: .success(.runAgain(after: schedule.delay(attempt: 0))))
        } catch let error where error.isRetryable {
            next.state = .queued
            return Result(generation: next, outcome: .failure(.transient(Self.reason(error))))
        } catch {
            return Result(generation: next, outcome: .failure(.invalidInput(Self.reason(error))))
        }
    }

    private func polledAgain(_ generation: Generation, progress: Double?) -> Result {
        var next = generation
        if let progress { next.progress = min(0.99, max(next.progress, progress)) }
        let delay = schedule.delay(attempt: next.polls)
        next.polls += 1
        return Result(generation: next, outcome: .success(.runAgain(after: delay)))
    }

    /// What a person reads when it did not work.
    static func reason(_ error: GenerationError) -> String {
        switch error {
        case .rejected(let text): "The provider refused this prompt: \(text)"
        case .notConfigured(let text): "The provider is not set up: \(text)"
        default: error.message
        }
    }
}
