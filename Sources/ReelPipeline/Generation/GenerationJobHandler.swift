import Foundation
import Logging
import ReelGeneration
import ReelJobs
import ReelModels
import ReelStorage
import ReelStore

/// The `generation` job: each attempt is one provider call (`GenerationStep`) — submit, or one
/// poll — and "look again in N s" is the job run again after N s. The generation row stays the
/// record people see; the job queue owns leases, retries with backoff, the time limit, cancel
/// and retry, and writes a final failure onto the generation itself (`JobStore`).
public struct GenerationJobHandler: JobHandler {
    public let kind = JobKind.generation
    let store: any GenerationStore
    let providers: [String: any GenerationProvider]
    let files: GenerationFiles
    let step: GenerationStep
    let now: @Sendable () -> Date
    let logger: Logger

    public init(
        store: any GenerationStore, providers: [any GenerationProvider], files: GenerationFiles, step: GenerationStep = GenerationStep(),
        now: @escaping @Sendable () -> Date = Date.init, logger: Logger
    ) {
        self.store = store
        self.providers = Dictionary(providers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.files = files
        self.step = step
        self.now = now
        self.logger = logger
    }

    public func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
        guard let id = job.subject.flatMap({ Int64($0) }), let generation = try await store.generation(id: id) else {
            throw JobFailure.invalidInput("the generation no longer exists")
        }
        // Discarded (or already done) meanwhile: nothing left to do.
        guard generation.state.isActive else { return .finished }
        guard let provider = providers[generation.provider] else {
            throw JobFailure.invalidInput("the provider \(generation.provider) is not available on this server")
        }
        try files.prepare()
        let result = await step.advance(generation, provider: provider, resultFile: files.result(id), now: now())
        if result.generation.state != generation.state {
            logger.info("generation \(result.generation.state.rawValue)", metadata: ["generation": "\(id)", "provider": "\(generation.provider)"])
        }
        // Saved only while still active: a person who discarded it meanwhile wins.
        guard try await store.saveGenerationStep(result.generation, now: now()) != nil else { return .finished }
        await context.reportProgress(result.generation.progress)
        return try result.outcome.get()
    }
}
