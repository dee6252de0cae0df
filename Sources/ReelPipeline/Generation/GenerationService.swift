import Foundation
import Logging
import ReelGeneration
import ReelModels
import ReelStore
import ServiceLifecycle

/// Advances generations in the background: claims a due one, lets `GenerationStep` make one
/// provider call, saves the result, repeats. Several can run (one per node): the store's lease
/// keeps two from working on one generation.
public struct GenerationService: Service {
    let store: any GenerationStore
    let providers: [String: any GenerationProvider]
    let files: GenerationFiles
    let step: GenerationStep
    let owner: String
    let idleInterval: Double
    let now: @Sendable () -> Date
    let logger: Logger

    public init(
        store: any GenerationStore, providers: [any GenerationProvider], files: GenerationFiles, step: GenerationStep = GenerationStep(),
        owner: String, idleInterval: Double = 0.5, now: @escaping @Sendable () -> Date = Date.init, logger: Logger
    ) {
        self.store = store
        self.providers = Dictionary(providers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.files = files
        self.step = step
        self.owner = owner
        self.idleInterval = idleInterval
        self.now = now
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            if try await !runOnce() {
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(idleInterval)) }
            }
        }
    }

    /// Advances one due generation; false when none was due.
    @discardableResult
    public func runOnce() async throws -> Bool {
        let claimed: Generation?
        do {
            claimed = try await store.claimDueGeneration(owner: owner, now: now(), leaseSeconds: 120)
        } catch {
            logger.error("could not claim a generation", metadata: ["error": "\(error)"])
            return false
        }
        guard let generation = claimed else { return false }
        var next: Generation
        if let provider = providers[generation.provider] {
            try files.prepare()
            next = await step.advance(generation, provider: provider, resultFile: files.result(generation.id), now: now())
        } else {
            next = generation
            next.state = .failed
            next.failureReason = "the provider \(generation.provider) is not available on this server"
        }
        if next.state != generation.state {
            logger.info("generation \(next.state.rawValue)", metadata: [
                "generation": "\(generation.id)", "provider": "\(generation.provider)",
                "reason": "\(next.failureReason ?? "-")",
            ])
        }
        _ = try await store.saveGeneration(next, owner: owner, now: now())
        return true
    }
}

/// Where finished generations wait for their creator's decision: `<data>/generations/<id>.mp4`.
/// Named by id only, so no request text ever becomes part of the path.
public struct GenerationFiles: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public func result(_ id: Int64) -> URL {
        root.appendingPathComponent("\(id).mp4")
    }

    public func prepare() throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    public func remove(_ id: Int64) {
        try? FileManager.default.removeItem(at: result(id))
    }
}
