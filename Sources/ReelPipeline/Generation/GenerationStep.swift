import Foundation
import ReelGeneration
import ReelModels

/// One step of a generation's life, as a function of where it is and what the provider says.
/// The service calls it for each due generation and saves what it returns; everything about
/// retries, back-off and deadlines is decided here, where a test can drive it with a fake clock.
public struct GenerationStep: Sendable {
    public var schedule: PollSchedule
    /// Submissions allowed when the provider keeps failing transiently or loses the job.
    public var maxAttempts: Int

    public init(schedule: PollSchedule = PollSchedule(), maxAttempts: Int = 3) {
        self.schedule = schedule
        self.maxAttempts = maxAttempts
    }

    /// Advances `generation` by one provider call. `resultFile` is where a finished clip goes.
    public func advance(_ generation: Generation, provider: any GenerationProvider, resultFile: URL, now: Date) async -> Generation {
        var next = generation
        next.updatedAt = now
        guard let jobID = generation.providerJobID, generation.state == .running else {
            return await submit(next, provider: provider, now: now)
        }
        if let submitted = generation.submittedAt, !schedule.allows(elapsed: now.timeIntervalSince(submitted)) {
            return failed(next, "the provider did not finish within \(Self.duration(schedule.deadline))")
        }
        do {
            switch try await provider.status(of: jobID) {
            case .queued:
                return polledAgain(next, progress: nil, now: now)
            case .running(let fraction):
                return polledAgain(next, progress: fraction, now: now)
            case .completed:
                try await provider.download(jobID, to: resultFile)
                next.state = .ready
                next.progress = 1
                return next
            case .failed(let error):
                return failed(next, Self.reason(error))
            }
        } catch .notFound {
            // The provider forgot the job (a local render lost in a restart): start it again.
            next.providerJobID = nil
            next.state = .queued
            next.nextPollAt = now
            return next.attempts >= maxAttempts ? failed(next, "the provider lost the job \(next.attempts) times") : next
        } catch let error where error.isRetryable {
            return polledAgain(next, progress: nil, now: now)
        } catch {
            return failed(next, Self.reason(error))
        }
    }

    private func submit(_ generation: Generation, provider: any GenerationProvider, now: Date) async -> Generation {
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
            next.nextPollAt = now.addingTimeInterval(schedule.delay(attempt: 0))
            return next
        } catch let error where error.isRetryable && next.attempts < maxAttempts {
            next.state = .queued
            next.nextPollAt = now.addingTimeInterval(schedule.delay(attempt: next.attempts + 2))
            return next
        } catch {
            return failed(next, Self.reason(error))
        }
    }

    private func polledAgain(_ generation: Generation, progress: Double?, now: Date) -> Generation {
        var next = generation
        if let progress { next.progress = min(0.99, max(next.progress, progress)) }
        next.nextPollAt = now.addingTimeInterval(schedule.delay(attempt: next.polls))
        next.polls += 1
        return next
    }

    private func failed(_ generation: Generation, _ reason: String) -> Generation {
        var next = generation
        next.state = .failed
        next.failureReason = reason
        return next
    }

    static func duration(_ seconds: Double) -> String {
        seconds >= 120 ? "\(Int(seconds / 60)) minutes" : "\(Int(seconds)) seconds"
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
