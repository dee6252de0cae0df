import Foundation
import Hummingbird
import ReelGeneration
import ReelModels
import ReelStorage
import ReelStore

/// What the generation routes need; absent, the routes answer 404 like any unknown path.
public struct GenerationDependencies: Sendable {
    public var store: any GenerationStore
    public var providers: [any GenerationProvider]
    public var defaultProvider: String
    public var files: GenerationFiles
    /// Makes a ready generation a post (import → transcode, like any clip). The media pipeline
    /// supplies it, so the server does not link ffmpeg runners or the importer.
    public var publish: Publish
    /// Bounds of each generation's job (attempts, time limit), set when it is created.
    public var jobLimits: GenerationJobLimits

    public init(
        store: any GenerationStore, providers: [any GenerationProvider], defaultProvider: String, files: GenerationFiles,
        publish: @escaping Publish, jobLimits: GenerationJobLimits = GenerationJobLimits()
    ) {
        self.jobLimits = jobLimits
        self.store = store
        self.providers = providers
        self.defaultProvider = defaultProvider
        self.files = files
        self.publish = publish
    }

    public typealias Publish = @Sendable (
        _ generation: Generation, _ description: String?, _ tags: [String], _ username: String
    ) async throws -> ImportedPost
}

/// Prompt → private preview → publish, discard or regenerate (seed 004's creation flow).
/// Generations belong to their creator: anyone else gets 404, as if they did not exist.
struct GenerationController {
    let dependencies: GenerationDependencies
    let limiter: any RateLimitStore
    let settings: GenerationSettings
    let now: @Sendable () -> Date
    let files = MediaFileResponder()

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/generations/providers", access: .user, "Generation providers and their styles") { _, context in
            _ = try context.requireUser()
            let list = dependencies.providers.map {
                APIGenerationProvider(id: $0.id, name: $0.displayName, local: $0.isLocal, isDefault: $0.id == dependencies.defaultProvider,
                                      styles: GenerationStyle.allCases.map(\.rawValue))
            }
            return try Response.json(APIList(items: list), context: context)
        }
        routes.on(.post, "/api/v1/generations", access: .user, "Start generating a clip from a prompt (per-user rate limit and daily quota)") { request, context in
            let user = try context.requireUser()
            let body = try await request.decodeJSON(APIGenerationRequest.self, context: context)
            let generation = try await start(body, user: user, parentID: nil)
            return try Response.json(present(generation), status: .accepted, context: context)
        }
        routes.on(.get, "/api/v1/generations", access: .user, "This user's generations, newest first") { _, context in
            let user = try context.requireUser()
            let list = try await dependencies.store.generations(userID: user.id, limit: 100).map(present)
            return try Response.json(APIList(items: list), context: context)
        }
        routes.on(.get, "/api/v1/generations/{id}", access: .user, "One generation: state, progress, failure reason, preview URL") { _, context in
            try Response.json(present(try await own(context)), context: context)
        }
        routes.on(.get, "/api/v1/generations/{id}/preview.mp4", access: .user, "The private preview of a ready generation (Range supported)") { request, context in
            let generation = try await own(context)
            guard generation.state == .ready else { throw APIError.conflict("generation \(generation.id) is \(generation.state.rawValue), not ready") }
            let url = dependencies.files.result(generation.id)
            guard let facts = MediaFileResponder.facts(of: url) else { throw APIError.notFound("the preview of generation \(generation.id)") }
            return try await files.file(
                url, facts: facts, contentType: "video/mp4", cacheControl: "private, no-store",
                etag: "\"gen-\(generation.id)-\(facts.size)\"", request: request, context: context
            )
        }
        routes.on(.post, "/api/v1/generations/{id}/publish", access: .user, "Publish a ready generation as a post (import → transcode)") { request, context in
            let user = try context.requireUser()
            let generation = try await own(context)
            let body = try await request.decodeJSON(APIGenerationPublishRequest.self, context: context)
            guard generation.state == .ready else { throw APIError.conflict("only a ready generation can be published; this one is \(generation.state.rawValue)") }
            let tags = body.tags.map { $0.isEmpty ? [] : $0 } ?? []
            if !tags.isEmpty { _ = try VideoController.validNames(tags, what: "tag") }
            if let description = body.description, description.count > 2000 { throw APIError.badRequest("the description is longer than 2000 characters") }
            // A refused file is a 422 and a storage fault a logged 500, through `ErrorMapping`.
            let published = try await dependencies.publish(generation, body.description, tags, user.name)
            var next = generation
            next.state = .published
            next.postID = published.postID
            next = try await dependencies.store.saveGeneration(next, now: now())
            dependencies.files.remove(generation.id)
            return try Response.json(
                APIGenerationPublished(generation: present(next), postId: published.postID, jobIds: published.jobIDs), context: context
            )
        }
        routes.on(.post, "/api/v1/generations/{id}/discard", access: .user, "Discard a generation and its preview") { _, context in
            let generation = try await own(context)
            guard generation.state != .published else { throw APIError.conflict("a published generation is a post now; delete the post instead") }
            var next = generation
            next.state = .discarded
            next = try await dependencies.store.saveGeneration(next, now: now())
            dependencies.files.remove(generation.id)
            return try Response.json(present(next), context: context)
        }
        routes.on(.post, "/api/v1/generations/{id}/regenerate", access: .user, "Generate again from this one with an edited prompt or style") { request, context in
            let user = try context.requireUser()
            let parent = try await own(context)
            let body = try await request.decodeJSON(APIRegenerateRequest.self, context: context)
            let orientation = parent.width > parent.height ? "landscape" : "portrait"
            let generation = try await start(
                APIGenerationRequest(prompt: body.prompt ?? parent.prompt, style: body.style ?? parent.style, seconds: parent.seconds,
                                     orientation: orientation, provider: parent.provider),
                user: user, parentID: parent.id
            )
            return try Response.json(present(generation), status: .accepted, context: context)
        }
    }

    private func start(_ body: APIGenerationRequest, user: User, parentID: Int64?) async throws -> Generation {
        let providerID = body.provider ?? dependencies.defaultProvider
        guard dependencies.providers.contains(where: { $0.id == providerID }) else {
            throw APIError.badRequest("unknown provider \(providerID); see /api/v1/generations/providers")
        }
        guard let style = GenerationStyle(rawValue: body.style ?? GenerationStyle.aurora.rawValue) else {
            throw APIError.badRequest("style must be one of \(GenerationStyle.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let (width, height): (Int, Int)
        switch body.orientation ?? "portrait" {
        case "portrait": (width, height) = (720, 1280)
        case "landscape": (width, height) = (1280, 720)
        default: throw APIError.badRequest("orientation must be portrait or landscape")
        }
        // An invalid request is a `GenerationError.invalidRequest`: a 400 through `ErrorMapping`.
        let request = try GenerationRequest(prompt: body.prompt, style: style, seconds: body.seconds ?? 4, width: width, height: height).validated()
        let now = now()
        if let retry = try await limiter.hit(key: "generate:\(user.id)", limit: settings.generationsPerMinute, window: 60, now: now).retryAfter {
            throw APIError.rateLimited(retryAfter: retry)
        }
        let dayStart = Calendar.utc.startOfDay(for: now)
        do {
            return try await dependencies.store.createGeneration(
                NewGeneration(userID: user.id, provider: providerID, prompt: request.prompt, style: style.rawValue, seconds: request.seconds,
                              width: width, height: height, parentID: parentID),
                job: dependencies.jobLimits, dailyLimit: settings.generationsPerDay, dayStart: dayStart, now: now
            )
        } catch StoreError.conflict {
            let reset = Int(dayStart.addingTimeInterval(86_400).timeIntervalSince(now).rounded(.up))
            throw APIError.quotaExceeded(
                "the daily limit of \(settings.generationsPerDay) generations is used up; it resets at midnight UTC", retryAfter: reset
            )
        }
    }

    private func own(_ context: AppRequestContext) async throws -> Generation {
        let user = try context.requireUser()
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else { throw APIError.notFound("that generation") }
        guard let generation = try await dependencies.store.generation(id: id), generation.userID == user.id else {
            throw APIError.notFound("generation \(id)")
        }
        return generation
    }

    private func present(_ generation: Generation) -> APIGeneration {
        let name = dependencies.providers.first { $0.id == generation.provider }?.displayName ?? generation.provider
        return APIGeneration(generation: generation, providerName: name)
    }
}

extension Calendar {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
