import Foundation
import ReelFeatures
import ReelKit
import ReelKitTestDoubles
import ReelModels
import ReelServer
import ReelStore
import ReelStoreSQLite
import ReelTestFiles
import ReelTestSupport
import Testing

/// A post's page: resume by the server's rule, hearts, collections, owner edits, a member's limits.
@Suite(.serialized) @MainActor struct DetailModelTests {
    @Test func playbackResumesOnlyWhereTheServersRuleSaysItIsWorthIt() async throws {
        // Test clips last 4 s: a rule for clips of 2 s and more, between 10 % and 90 %.
        try await withHarness(videos: 2, configure: { $0[VideoSettings.self].resumeMinDuration = 2; $0[VideoSettings.self].resumeMinFraction = 0.1; $0[VideoSettings.self].resumeMaxFraction = 0.9 }) { harness in
            let context = try await harness.context()
            let id = harness.server.videoIDs[0]
            let model = DetailModel(context: context, id: id)
            await model.load()
            #expect(model.video?.duration == 4 && model.title.isEmpty == false)
            #expect(await model.resumePosition() == nil, "never watched")

            await model.playbackStopped(at: 1)
            let reopened = DetailModel(context: context, id: id)
            await reopened.load()
            #expect(reopened.video?.position == 1, "the server kept it (another device would resume too)")
            #expect(await reopened.resumePosition() == 1)

            await reopened.playbackStopped(at: 3.9)
            let nearEnd = DetailModel(context: context, id: id)
            await nearEnd.load()
            #expect(await nearEnd.resumePosition() == nil, "nearly finished: start over")
        }
    }

    @Test func theOwnerFilesThePostInCollectionsAndMakesANewOne() async throws {
        try await withHarness(videos: 2) { harness in
            let id = harness.server.videoIDs[0]
            let existing = try await harness.client().createCollection(name: "Sunsets")
            let model = DetailModel(context: try await harness.context(), id: id)
            await model.load()
            #expect(model.canEdit && model.allCollections.map(\.name) == ["Sunsets"] && model.memberOf.isEmpty)

            await model.setMember(true, of: existing.id)
            #expect(model.memberOf == [existing.id])
            await model.createCollection(named: "  Road trip ")
            let made = try #require(model.allCollections.first { $0.name == "Road trip" })
            #expect(model.memberOf == [existing.id, made.id])
            await model.setMember(false, of: existing.id)
            #expect(model.memberOf == [made.id])
            let server = try await harness.client().videoDetail(id: id)
            #expect(server.collections.map(\.name) == ["Road trip"])

            await model.createCollection(named: "   ")
            #expect(model.notice == "Give the collection a name.")
        }
    }

    @Test func anOwnersNewDescriptionTurnsItsHashtagsIntoTags() async throws {
        try await withHarness(videos: 1) { harness in
            let id = harness.server.videoIDs[0]
            let model = DetailModel(context: try await harness.context(), id: id)
            await model.load()
            #expect(await model.edit(description: "Golden hour #sunset #Beach", tags: nil))
            let tags = Set(model.video?.tags.map(\.name) ?? [])
            #expect(tags.isSuperset(of: ["sunset", "beach"]))
            await model.toggleLike()
            await model.rate(5)
            #expect(model.postState == PostState(isFavorited: true, rating: 5))
            #expect(try await harness.client().video(id: id).rating == 5)
        }
    }

    @Test func aMemberCannotEditAndIsToldSo() async throws {
        try await withHarness(videos: 1) { harness in
            let mia = try await harness.member()
            let model = DetailModel(context: try await harness.context(await mia.credentials), id: harness.server.videoIDs[0])
            await model.load()
            #expect(!model.canEdit && model.allCollections.isEmpty)
            #expect(await model.edit(description: "mine now", tags: nil) == false)
            #expect(model.notice != nil)
            #expect(await model.delete() == false && !model.isDeleted)
        }
    }

    @Test func theDownloadIsTheServersFileAndCountsForForYou() async throws {
        try await withHarness(videos: 1) { harness in
            let id = harness.server.videoIDs[0]
            let context = try await harness.context()
            let model = DetailModel(context: context, id: id)
            await model.load()
            let url = try #require(model.downloadURL)
            let data = try #require(await model.download())
            #expect(String(decoding: data, as: UTF8.self) == "download of clip-0" && url.path.contains("/media/"))
            #expect(await context.events.pending.contains { $0.postID == id && $0.type == .download })
        }
    }
}
