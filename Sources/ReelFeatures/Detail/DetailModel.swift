import Foundation
import Observation
import ReelKit
import ReelModels

/// One post's page: the player resumes where the person stopped (the server's position, kept
/// across devices, else this device's), the heart and stars, its collections, the download,
/// and for owners editing and deleting.
@Observable @MainActor
public final class DetailModel {
    public let id: Int64
    public private(set) var content: Loadable<APIVideoDetail> = .idle
    public private(set) var postState = PostState()
    /// Every collection the owner may add the post to (empty for members: they cannot).
    public private(set) var allCollections: [APICollection] = []
    public private(set) var isDeleted = false
    public var notice: String?
    private let context: FeatureContext

    public init(context: FeatureContext, id: Int64) {
        self.context = context
        self.id = id
    }

    public var video: APIVideo? { content.value?.video }
    public var title: String { content.value?.title ?? "" }
    public var canEdit: Bool { context.isOwner }
    public var memberOf: Set<Int64> { Set(content.value?.collections.map(\.id) ?? []) }

    public func load() async {
        if content.value == nil { content = .loading }
        let client = context.client, id = id, owner = context.isOwner
        let result = await context.attempt { () async throws in
            async let detail = client.videoDetail(id: id)
            async let collections = owner ? client.collections() : []
            return try await (detail, collections)
        }
        switch result {
        case .success(let (detail, collections)):
            content = .loaded(detail)
            allCollections = collections
            await context.postState.observe([detail.video])
            postState = await context.postState.state(of: id) ?? PostState(isFavorited: detail.video.isFavorited, rating: detail.video.rating)
        case .failure(let error):
            if error.kind == .notFound { isDeleted = true }
            if content.value == nil { content = .failed(error) }
        }
    }

    // MARK: Resume

    /// Where the player starts: nil from the beginning. The server's rule (`GET /api/v1/me`)
    /// decides whether a position is worth restoring: long enough, not barely started, not
    /// nearly finished.
    public func resumePosition() async -> TimeInterval? {
        guard let video, let duration = video.duration, duration > 0 else { return nil }
        let local = await context.resume.position(for: id)
        guard let position = video.position ?? local else { return nil }
        guard let rule = context.account?.resume else { return position }
        let fraction = position / duration
        guard duration >= rule.minDuration, fraction >= rule.minFraction, fraction <= rule.maxFraction else { return nil }
        return position
    }

    /// The player stops (leaving, pausing, the app going to the background): the position is
    /// kept here and on the server; at the end it is cleared so next time starts over.
    public func playbackStopped(at seconds: TimeInterval) async {
        let duration = video?.duration
        await context.resume.record(seconds, duration: duration, for: id)
        // The server keeps the position as it is (its rule decides when it is worth resuming);
        // at the end it is cleared.
        let finished = duration.map { seconds >= $0 - context.resume.endMargin } ?? false
        try? await context.client.setPosition(finished || !seconds.isFinite ? nil : seconds, videoID: id)
    }

    // MARK: Heart and stars

    public func toggleLike() async {
        await change { $0.isFavorited.toggle() }
    }

    public func rate(_ stars: Int) async {
        await change { $0.rating = stars }
    }

    private func change(_ edit: (inout PostState) -> Void) async {
        let before = postState
        edit(&postState)
        let outcome = await context.changePost(id, from: before, edit)
        postState = outcome.state
        if let refusal = outcome.refusal { notice = "Couldn't save that: \(refusal.message)" }
    }

    // MARK: Collections (owners)

    public func setMember(_ member: Bool, of collection: Int64) async {
        guard var detail = content.value else { return }
        let client = context.client, id = id
        let result = await context.attempt { () async throws in
            if member { _ = try await client.addToCollection(id: collection, postID: id) } else { try await client.removeFromCollection(id: collection, postID: id) }
        }
        switch result {
        case .success:
            detail.collections.removeAll { $0.id == collection }
            if member, let added = allCollections.first(where: { $0.id == collection }) {
                detail.collections.append(APIVideoDetail.CollectionRef(id: added.id, name: added.name))
            }
            content = .loaded(detail)
        case .failure(let error):
            notice = error.message
        }
    }

    /// A new collection holding this post.
    public func createCollection(named name: String) async {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            notice = "Give the collection a name."
            return
        }
        let client = context.client, id = id
        switch await context.attempt({ () async throws in try await client.createCollection(name: name, postIDs: [id]) }) {
        case .success(let collection):
            allCollections.append(collection)
            if var detail = content.value {
                detail.collections.append(APIVideoDetail.CollectionRef(id: collection.id, name: collection.name))
                content = .loaded(detail)
            }
        case .failure(let error):
            notice = error.message
        }
    }

    // MARK: Download

    /// The file to save, named after the post by the server; nil for a post without one.
    public var downloadURL: URL? {
        video?.media.download.flatMap { context.client.url(for: $0) }
    }

    /// The bytes of the download (the app writes them where the person chose), counted as a
    /// download for For You.
    public func download() async -> Data? {
        guard let url = downloadURL else { return nil }
        let client = context.client
        switch await context.attempt({ () async throws in try await client.download(url) }) {
        case .success(let data):
            await context.events.record(.download, postID: id)
            return data
        case .failure(let error):
            notice = error.message
            return nil
        }
    }

    // MARK: Owner edits

    /// A new description (its #hashtags become tags on the server) and/or the whole tag set.
    public func edit(description: String?, tags: [String]?) async -> Bool {
        let client = context.client, id = id
        switch await context.attempt({ () async throws in try await client.editVideo(id: id, description: description, tags: tags) }) {
        case .success(let detail):
            content = .loaded(detail)
            return true
        case .failure(let error):
            notice = error.message
            return false
        }
    }

    /// Deletes the post for good; every list of this session drops it.
    public func delete() async -> Bool {
        let client = context.client, id = id
        switch await context.attempt({ () async throws in try await client.deleteVideo(id: id) }) {
        case .success:
            isDeleted = true
            context.postDeleted(id)
            return true
        case .failure(let error):
            notice = error.message
            return false
        }
    }
}
