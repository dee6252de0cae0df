import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// One suite for both stores (SQLite and PostgreSQL): they must give the same answers.
@Suite("Stories on SQLite and PostgreSQL: tray, seen and liked")
struct StoryStoreTests {
    @Test("the tray puts unseen people first, then the newest, and a new item lights a seen ring again", arguments: StoreBackend.allCases)
    func trayOrderAndRelight(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "h", now: t0)
            let ana1 = try await fileStory(store, author: "Ana", postedAt: t0)
            let ana2 = try await fileStory(store, author: "ana", postedAt: t0 + 60)
            let bo = try await fileStory(store, author: "bo", postedAt: t0 + 120)
            let now = t0 + 600

            var tray = try await store.storyTray(viewerID: viewer.id, now: now, after: nil, limit: 20).entries
            #expect(tray.map(\.authorKey) == ["bo", "ana"])
            #expect(tray[1].author == "ana" && tray[1].itemsCount == 2 && tray[1].newest.id == ana2 && !tray[1].allSeen)
            #expect(tray[1].latestAt == t0 + 60)

            // Half of Ana's: still unseen, and the player starts at her second item.
            #expect(try await store.markStoriesSeen(viewerID: viewer.id, postIDs: [ana1], now: now) == StorySeenResult(accepted: 1, ignored: 0))
            tray = try await store.storyTray(viewerID: viewer.id, now: now, after: nil, limit: 20).entries
            #expect(tray.map(\.authorKey) == ["bo", "ana"] && tray[1].firstUnseen == 1 && !tray[1].allSeen)

            // All of Ana's: her ring goes grey and she moves behind everyone unseen.
            _ = try await store.markStoriesSeen(viewerID: viewer.id, postIDs: [ana2, bo], now: now)
            tray = try await store.storyTray(viewerID: viewer.id, now: now, after: nil, limit: 20).entries
            #expect(tray.map(\.allSeen) == [true, true] && tray.map(\.authorKey) == ["bo", "ana"] && tray[1].firstUnseen == 0)

            // A new item of Ana's lights her ring again, at the new item.
            let ana3 = try await fileStory(store, author: "ana", postedAt: t0 + 700)
            tray = try await store.storyTray(viewerID: viewer.id, now: t0 + 800, after: nil, limit: 20).entries
            #expect(tray.map(\.authorKey) == ["ana", "bo"])
            #expect(!tray[0].allSeen && tray[0].firstUnseen == 2 && tray[0].itemsCount == 3 && tray[0].newest.id == ana3)
            // Someone else's seen marks are their own.
            let other = try await store.createUser(name: "other", role: .member, passwordHash: "h", now: t0)
            #expect(try await store.storyTray(viewerID: other.id, now: t0 + 800, after: nil, limit: 20).entries.allSatisfy { !$0.allSeen })
        }
    }

    @Test("tray pages follow the cursor without repeats or gaps, ties broken by name", arguments: StoreBackend.allCases)
    func trayPaging(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "h", now: t0)
            // Two people share a latest time, so the name decides between them.
            for (index, name) in ["cy", "di", "ed", "fa", "gu"].enumerated() {
                try await fileStory(store, author: name, postedAt: t0 + Double(index == 1 ? 0 : index) * 10)
            }
            let seen = try await fileStory(store, author: "ha", postedAt: t0 + 100)
            _ = try await store.markStoriesSeen(viewerID: viewer.id, postIDs: [seen], now: t0 + 200)
            let all = try await store.storyTray(viewerID: viewer.id, now: t0 + 200, after: nil, limit: 50).entries.map(\.authorKey)
            #expect(all == ["gu", "fa", "ed", "cy", "di", "ha"])
            var walked: [String] = []
            var cursor: StoryTrayCursor?
            repeat {
                let page = try await store.storyTray(viewerID: viewer.id, now: t0 + 200, after: cursor, limit: 2)
                walked += page.entries.map(\.authorKey)
                cursor = page.next
            } while cursor != nil
            #expect(walked == all)
        }
    }

    @Test("only live items count: not unpublished, not past their expiry, not expired; kept ones until their expiry", arguments: StoreBackend.allCases)
    func liveness(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "h", now: t0)
            let old = try await fileStory(store, author: "ana", postedAt: t0, lifetime: 3600)
            _ = try await fileStory(store, author: "ana", postedAt: t0 + 10, publish: false)
            let forever = try await fileStory(store, author: "ana", postedAt: t0 + 20, lifetime: nil, archived: true)
            let kept = try await fileStory(store, author: "ana", postedAt: t0 + 30, lifetime: 7200)
            try await store.keepStory(postID: kept)
            #expect(try await store.post(id: kept)?.status == .ready)
            #expect(try await store.post(id: old)?.status == .story)

            var items = try await store.liveStories(viewerID: viewer.id, author: "ANA", now: t0 + 60)
            #expect(items.map(\.id) == [old, forever, kept] && items[2].kept && items[1].expiresAt == nil)
            items = try await store.liveStories(viewerID: viewer.id, author: "ana", now: t0 + 3600)
            #expect(items.map(\.id) == [forever, kept])
            items = try await store.liveStories(viewerID: viewer.id, author: "ana", now: t0 + 7230)
            #expect(items.map(\.id) == [forever])
            #expect(try await store.liveStories(viewerID: viewer.id, author: "nobody", now: t0).isEmpty)
            // Seen marks of what is not live are ignored, not failed.
            let result = try await store.markStoriesSeen(viewerID: viewer.id, postIDs: [old, forever, 999_999, forever], now: t0 + 7230)
            #expect(result == StorySeenResult(accepted: 1, ignored: 2))
        }
    }

    @Test("a viewer never sees a story of a library not granted to them", arguments: StoreBackend.allCases)
    func scope(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let owner = try await store.createUser(name: "boss", role: .owner, passwordHash: "h", now: t0)
            let member = try await store.createUser(name: "member", role: .member, passwordHash: "h", now: t0)
            let family = try await store.createLibrary(name: "Family", now: t0)
            let hidden = try await fileStory(store, author: "ana", postedAt: t0, libraryID: family.id)
            let shown = try await fileStory(store, author: "bo", postedAt: t0 + 1)
            let now = t0 + 60

            #expect(try await store.storyTray(viewerID: member.id, now: now, after: nil, limit: 20).entries.map(\.authorKey) == ["bo"])
            #expect(try await store.storyTray(viewerID: owner.id, now: now, after: nil, limit: 20).entries.map(\.authorKey) == ["bo", "ana"])
            #expect(try await store.liveStories(viewerID: member.id, author: "ana", now: now).isEmpty)
            #expect(try await store.storyItem(postID: hidden, viewerID: member.id) == nil)
            #expect(try await store.storyItem(postID: shown, viewerID: member.id)?.author == "bo")
            #expect(try await store.markStoriesSeen(viewerID: member.id, postIDs: [hidden, shown], now: now) == StorySeenResult(accepted: 1, ignored: 1))
            await #expect(throws: StoreError.notFound("story item \(hidden)")) {
                try await store.setStoryLike(viewerID: member.id, postID: hidden, liked: true, now: now)
            }
            try await store.grant(libraryID: family.id, userID: member.id)
            #expect(try await store.liveStories(viewerID: member.id, author: "ana", now: now).map(\.id) == [hidden])
        }
    }

    @Test("seen keeps its first time; likes are idempotent and counted; the poster is no viewer of their own item", arguments: StoreBackend.allCases)
    func seenLikesAndViewers(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let ana = try await store.createUser(name: "ana", role: .member, passwordHash: "h", now: t0)
            var viewers: [User] = []
            for number in 1...3 { viewers.append(try await store.createUser(name: "v\(number)", role: .member, passwordHash: "h", now: t0)) }
            let item = try await fileStory(store, author: "ana", userID: ana.id, postedAt: t0)

            _ = try await store.markStoriesSeen(viewerID: ana.id, postIDs: [item], now: t0 + 1)
            for (index, viewer) in viewers.enumerated() {
                _ = try await store.markStoriesSeen(viewerID: viewer.id, postIDs: [item], now: t0 + 10 + Double(index))
            }
            // A replay later changes nothing.
            #expect(try await store.markStoriesSeen(viewerID: viewers[0].id, postIDs: [item], now: t0 + 500).accepted == 1)
            try await store.setStoryLike(viewerID: viewers[1].id, postID: item, liked: true, now: t0 + 20)
            try await store.setStoryLike(viewerID: viewers[1].id, postID: item, liked: true, now: t0 + 30)
            try await store.setStoryLike(viewerID: viewers[2].id, postID: item, liked: true, now: t0 + 20)
            try await store.setStoryLike(viewerID: viewers[2].id, postID: item, liked: false, now: t0 + 21)
            try await store.setStoryLike(viewerID: viewers[2].id, postID: item, liked: false, now: t0 + 22)

            let owned = try #require(try await store.storyItem(postID: item, viewerID: ana.id))
            #expect(owned.viewCount == 3 && owned.likeCount == 1 && owned.seen && !owned.liked)
            #expect(try await store.storyItem(postID: item, viewerID: viewers[1].id)?.liked == true)

            let first = try await store.storyViewers(postID: item, after: nil, limit: 2)
            #expect(first.viewers.map(\.name) == ["v3", "v2"] && first.viewers.map(\.liked) == [false, true])
            let second = try await store.storyViewers(postID: item, after: first.next, limit: 2)
            #expect(second.viewers.map(\.name) == ["v1"] && second.next == nil)
            #expect(second.viewers[0].seenAt == t0 + 10)
        }
    }

    @Test("the archive lists the poster's own published items, live and expired, newest first", arguments: StoreBackend.allCases)
    func archive(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let ana = try await store.createUser(name: "ana", role: .member, passwordHash: "h", now: t0)
            let first = try await fileStory(store, author: "ana", userID: ana.id, postedAt: t0, lifetime: 60)
            let second = try await fileStory(store, author: "ana", userID: ana.id, postedAt: t0 + 10)
            _ = try await fileStory(store, author: "ana", userID: ana.id, postedAt: t0 + 20, publish: false)
            _ = try await fileStory(store, author: "ana", postedAt: t0 + 30)
            _ = try await store.expireStories(now: t0 + 120, keepOwnerArchive: true)

            let page = try await store.storyArchive(viewerID: ana.id, after: nil, limit: 1)
            #expect(page.items.map(\.id) == [second])
            let rest = try await store.storyArchive(viewerID: ana.id, after: page.next, limit: 5)
            #expect(rest.items.map(\.id) == [first] && rest.items[0].expired && rest.next == nil)
        }
    }

    @Test("expiry marks items and answers those to delete until they are gone", arguments: StoreBackend.allCases, [true, false])
    func expiry(backend: StoreBackend, keepOwnerArchive: Bool) async throws {
        try await withStore(backend) { (store) async throws in
            let ana = try await store.createUser(name: "ana", role: .member, passwordHash: "h", now: t0)
            let outside = try await fileStory(store, author: "pexels-jo", postedAt: t0, lifetime: 60)
            let users = try await fileStory(store, author: "ana", userID: ana.id, postedAt: t0, lifetime: 60)
            let kept = try await fileStory(store, author: "ana", userID: ana.id, postedAt: t0, lifetime: 60)
            try await store.keepStory(postID: kept)
            let archived = try await fileStory(store, author: "insta", postedAt: t0 - 86_400, lifetime: 86_400, archived: true)
            let later = try await fileStory(store, author: "ana", postedAt: t0, lifetime: 3600)

            #expect(try await store.expireStories(now: t0 + 59, keepOwnerArchive: keepOwnerArchive).isEmpty)
            let doomed = try await store.expireStories(now: t0 + 60, keepOwnerArchive: keepOwnerArchive)
            #expect(doomed == (keepOwnerArchive ? [outside] : [outside, users]).sorted())
            #expect(try await store.storyItem(postID: archived, viewerID: ana.id)?.expired == true)
            #expect(try await store.storyItem(postID: later, viewerID: ana.id)?.expired == false)
            // Not deleted yet (a sweep that died halfway): asked again next round.
            #expect(try await store.expireStories(now: t0 + 61, keepOwnerArchive: keepOwnerArchive) == doomed)
            for id in doomed { _ = try await store.removePost(id: id) }
            #expect(try await store.expireStories(now: t0 + 62, keepOwnerArchive: keepOwnerArchive).isEmpty)
            #expect(try await store.post(id: kept)?.status == .ready)
            #expect(try await store.storyTray(viewerID: ana.id, now: t0 + 62, after: nil, limit: 20).entries.map(\.authorKey) == ["ana"])
        }
    }

    @Test("a library keeps archived stories unless told otherwise", arguments: StoreBackend.allCases)
    func keepArchivedStories(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            #expect(try await store.keepsArchivedStories(libraryID: 1))
            let changed = try await store.setKeepArchivedStories(libraryID: 1, keep: false)
            #expect(!changed.keepArchivedStories)
            #expect(try await store.keepsArchivedStories(libraryID: 1) == false)
            #expect(try await store.libraries().first?.keepArchivedStories == false)
            await #expect(throws: StoreError.notFound("library 9")) { _ = try await store.keepsArchivedStories(libraryID: 9) }
        }
    }
}

