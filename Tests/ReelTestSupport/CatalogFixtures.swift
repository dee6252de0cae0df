import Foundation
import ReelModels
import ReelStore

/// What a catalog test knows about one post it made, to check listings against plain Swift.
public struct CatalogModelPost {
    public var id: Int64
    public var title: String
    public var kind: PostKind
    public var duration: Double?
    public var tags: Set<String>
    public var uploader: String?
    public var username: String?
    public var datePosted: String?
    public var added: Date
}

/// A ready post with the given metadata and media duration.
@discardableResult
public func makeReadyPost(
    _ store: any PortableStore, folder: String, description: String? = nil, shortcode: String? = nil, kind: PostKind = .video,
    duration: Double? = 2.5, tags: [String] = [], uploader: String? = nil, username: String? = nil, datePosted: String? = nil,
    added: Date = t0
) async throws -> CatalogModelPost {
    let (post, _) = try await store.insertPost(
        NewPost(kind: kind, folderName: folder,
                metadata: PostMetadata(description: description, uploader: uploader, username: username, shortcode: shortcode,
                                       datePosted: datePosted, tags: tags),
                contentHash: UUID().uuidString, sourcePaths: ["sources/\(folder).mp4"], dateAdded: added),
        maxAttempts: 3, now: t0
    )
    var media = sampleMedia
    media.duration = duration
    try await store.publish(postID: post.id, media: media, key: nil)
    return CatalogModelPost(
        id: post.id, title: PostTitle.title(description: description, shortcode: shortcode, folderName: folder), kind: kind,
        duration: duration, tags: Set(tags.map { $0.lowercased() }), uploader: uploader, username: username, datePosted: datePosted,
        added: added
    )
}

extension CatalogStore {
    /// Every page of a browse, in order, checking that no post comes twice.
    public func browseAll(userID: Int64, _ query: BrowseQuery, limit: Int = 2) async throws -> [Int64] {
        try await walkCatalog { try await self.browse(userID: userID, query: query, after: $0, limit: limit) }
    }

    public func shelfAll(_ shelf: Shelf, userID: Int64, resume: ResumeRule = ResumeRule(), limit: Int = 2) async throws -> [Int64] {
        try await walkCatalog { try await self.shelf(shelf, userID: userID, resume: resume, after: $0, limit: limit) }
    }

    private func walkCatalog(_ page: (CatalogPosition?) async throws -> (items: [FeedItem], next: CatalogPosition?)) async throws -> [Int64] {
        var ids: [Int64] = []
        var position: CatalogPosition?
        for _ in 0..<1000 {
            let (items, next) = try await page(position)
            ids += items.map(\.post.id)
            guard let next else { break }
            position = next
        }
        if Set(ids).count != ids.count { throw FixtureFailure("a listing served a post twice: \(ids)") }
        return ids
    }
}
