import Foundation
import ReelModels
import ReelStore

/// Turns story items and tray entries into their wire form. Media URLs come from the feed's
/// `VideoPresenter`, so a story plays through exactly the signed URLs a feed item does.
struct StoryPresenter: Sendable {
    let videos: VideoPresenter
    /// Seconds a photo item stays on screen (`storyPhotoSeconds`).
    let photoSeconds: Double

    func item(_ item: StoryItem, for user: User, now: Date) -> APIStoryItem {
        let post = item.post
        let isPoster = item.userID == user.id
        let isVideo = post.kind == .video
        return APIStoryItem(
            id: post.id, kind: isVideo ? .video : .photo, seen: item.seen, liked: item.liked,
            postedAt: VideoPresenter.iso8601(item.postedAt), expiresAt: item.expiresAt.map(VideoPresenter.iso8601),
            duration: isVideo ? (post.media?.duration ?? 0) : photoSeconds,
            width: post.media?.width ?? 0, height: post.media?.height ?? 0,
            media: videos.mediaURLs(for: post, now: now), caption: post.metadata.description,
            part: item.part, parts: item.parts, attribution: Self.attribution(of: post),
            viewCount: isPoster ? item.viewCount : nil, likeCount: isPoster ? item.likeCount : nil, kept: isPoster ? item.kept : nil
        )
    }

    func entry(_ entry: StoryTrayEntry, for user: User) -> APIStoryTrayEntry {
        let media = entry.newest.media
        return APIStoryTrayEntry(
            user: entry.author, isMe: Self.isMe(entry.authorKey, user), itemsCount: entry.itemsCount, firstUnseen: entry.firstUnseen,
            allSeen: entry.allSeen, latestAt: VideoPresenter.iso8601(entry.latestAt),
            avatar: (media?.thumbnail ?? media?.poster).map { videos.image(entry.newest.id, $0) }
        )
    }

    /// A person's tray name is their username: their own entry is the one filed under it.
    static func isMe(_ authorKey: String, _ user: User) -> Bool {
        authorKey == user.name.lowercased()
    }

    /// Credit for an item of an outside catalogue, told by its source page: Pexels asks for
    /// the photographer and a link back. `reelhouse source pexels` keeps them as the post's
    /// uploader, its username (the profile's handle, `jane-doe`) and its source URL (the item's page).
    static func attribution(of post: Post) -> APIAttribution? {
        guard let page = post.metadata.sourceURL, let host = URL(string: page)?.host?.lowercased(),
              host == "pexels.com" || host.hasSuffix(".pexels.com")
        else { return nil }
        let handle = post.metadata.username.map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 }.flatMap { name in
            !name.isEmpty && name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) ? name : nil
        }
        return APIAttribution(
            source: "Pexels", author: post.metadata.uploader, authorUrl: handle.map { "https://www.pexels.com/@\($0)" }, url: page
        )
    }
}
