import Foundation
import ReelModels

/// How a new generation's job is bounded: attempts (submissions and polls that fail) and the
/// time the whole generation may take before the queue fails it.
public struct GenerationJobLimits: Sendable, Equatable {
    public var maxAttempts: Int
    public var timeLimit: TimeInterval

    public init(maxAttempts: Int = 3, timeLimit: TimeInterval = 20 * 60) {
        self.maxAttempts = maxAttempts
        self.timeLimit = timeLimit
    }
}

/// Generations: the record a person sees (prompt, state, preview). Their work runs as
/// `generation` jobs on the one job queue (`JobStore`), created with them.
public protocol GenerationStore: Sendable {
    /// Creates a queued generation and its `generation` job, in one transaction, unless the
    /// user already started `dailyLimit` since `dayStart`; then `StoreError.conflict` (the
    /// server answers 429).
    func createGeneration(_ new: NewGeneration, job: GenerationJobLimits, dailyLimit: Int, dayStart: Date, now: Date) async throws -> Generation
    func generation(id: Int64) async throws -> Generation?
    /// The user's generations, newest first.
    func generations(userID: Int64, limit: Int) async throws -> [Generation]
    /// Saves what a person did (publish, discard): every field.
    func saveGeneration(_ generation: Generation, now: Date) async throws -> Generation
    /// Saves what a job step found, only while the generation is still active (queued or
    /// running); nil when it is not (a person discarded it meanwhile), and nothing is written.
    func saveGenerationStep(_ generation: Generation, now: Date) async throws -> Generation?
}
