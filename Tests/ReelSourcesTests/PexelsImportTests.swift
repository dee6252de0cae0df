import Foundation
import GRDB
import ReelMedia
import ReelModels
import ReelPipeline
import ReelProcess
import ReelSources
import ReelStorage
import ReelStorageLocal
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing
import ReelTestFiles

/// Items staged from the fake catalogue and imported for real: ffprobe checks each file, the
/// importer reads the sidecars, the SQLite store keeps the posts.
@Suite("Pexels items imported through the pipeline")
struct PexelsImportTests {
    struct Library {
        let folder: TemporaryFolder
        let dataFolder: DataFolder
        let store: SQLiteStore
        let importer: Importer

        init() throws {
            folder = try TemporaryFolder(prefix: "reel-pexels-import")
            dataFolder = DataFolder(root: folder.url.appendingPathComponent("data"))
            try dataFolder.prepare()
            store = try SQLiteStore(path: dataFolder.databasePath)
            importer = Importer(dataFolder: dataFolder, store: store, runner: FoundationProcessRunner(), limits: .default, sources: SourceStore(dataFolder: dataFolder))
        }

        /// The folder `reelhouse source` stages into (import skips `tmp/`, not this).
        var staging: URL { dataFolder.publishStagingRoot.appendingPathComponent("pexels-test", isDirectory: true) }
    }

    @Test("attribution lands in the posts' metadata, and a video whose file is gone is skipped while the rest is imported")
    func attributionAndMissingFile() async throws {
        let library = try Library()
        defer { library.folder.remove() }
        let (first, third, photo) = (try await TinyMedia.clip("one"), try await TinyMedia.clip("three"), try await TinyMedia.photo("lighthouse"))
        let clock = TestClock()
        try await FakePexelsServer.withLive(clock: clock) { base, state in
            await state.configure { state in
                state.videos = [Catalogue.video(11, by: "Jane Doe", title: "waves at dusk"), Catalogue.video(12), Catalogue.video(13, by: "Ana Lima", title: "city lights")]
                state.files["11-hd.mp4"] = first
                state.files["13-hd.mp4"] = third
                state.photos = [Catalogue.photo(21)]
                state.files["21.jpeg"] = photo
            }
            try FileManager.default.createDirectory(at: library.staging, withIntermediateDirectories: true)
            let stager = SourceStager(source: try Catalogue.source(base, clock: clock))
            let videos = await stager.stage(SourceQuery(kind: .video, search: "Ocean", orientation: .portrait), limit: 3, into: library.staging)
            #expect(videos.skipped == [.init(id: "12", reason: "the file of Pexels video 12 is gone (HTTP 404)")])
            let photos = await stager.stage(SourceQuery(kind: .photo, search: "Ocean"), limit: 1, into: library.staging)
            #expect(videos.stoppedBy == nil && photos.stoppedBy == nil)

            let (report, jobIDs) = try await library.importer.run([library.staging], options: ImportOptions())
            #expect(report.rejected.isEmpty && report.skipped.isEmpty, "\(report)")
            #expect(report.imported.map(\.path).sorted() == ["pexels-photo-21.jpeg", "pexels-video-11.mp4", "pexels-video-13.mp4"])
            #expect(report.imported.map(\.folderName).sorted() == ["pexels-photo-21", "pexels-video-11", "pexels-video-13"])
            #expect(jobIDs.count == 3)

            var posts: [String: Post] = [:]
            for imported in report.imported {
                let post = try #require(try await library.store.post(id: imported.id))
                posts[imported.path] = post
            }
            let jane = try #require(posts["pexels-video-11.mp4"])
            #expect(jane.kind == .video)
            #expect(jane.metadata == PostMetadata(
                description: "Waves at dusk", uploader: "Jane Doe", username: "jane-doe", shortcode: "pexels-video-11",
                sourceURL: "https://www.pexels.com/video/waves-at-dusk-11/", tags: ["ocean", "pexels"]
            ))
            #expect(posts["pexels-video-13.mp4"]?.metadata.uploader == "Ana Lima")
            #expect(posts["pexels-video-13.mp4"]?.metadata.sourceURL == "https://www.pexels.com/video/city-lights-13/")
            let lighthouse = try #require(posts["pexels-photo-21.jpeg"])
            #expect(lighthouse.kind == .image)
            #expect(lighthouse.metadata == PostMetadata(
                description: "A lighthouse on a cliff", uploader: "José Núñez", username: "jose-nunez-21", shortcode: "pexels-photo-21",
                sourceURL: "https://www.pexels.com/photo/lighthouse-21/", tags: ["ocean", "pexels"]
            ))
        }
    }

    @Test("as stories: each author's items are filed as the stories of pexels-<name>, not archived, expiring after the lifetime")
    func asStories() async throws {
        let library = try Library()
        defer { library.folder.remove() }
        let clips = [try await TinyMedia.clip("s1"), try await TinyMedia.clip("s2"), try await TinyMedia.clip("s3")]
        let clock = TestClock()
        try await FakePexelsServer.withLive(clock: clock) { base, state in
            await state.configure { state in
                state.videos = [Catalogue.video(31, by: "Jane Doe"), Catalogue.video(32, by: "Ana Lima"), Catalogue.video(33, by: "Jane Doe")]
                for (index, clip) in clips.enumerated() { state.files["\(31 + index)-hd.mp4"] = clip }
            }
            try FileManager.default.createDirectory(at: library.staging, withIntermediateDirectories: true)
            let staged = await SourceStager(source: try Catalogue.source(base, clock: clock))
                .stage(SourceQuery(kind: .video, search: "city"), limit: 3, into: library.staging)
            let batches = try staged.batchesByStoryAuthor(in: library.staging)
            #expect(batches.map(\.author) == ["pexels-jane-doe", "pexels-ana-lima"])
            #expect(batches.map { $0.items.map(\.item.id) } == [["31", "33"], ["32"]])

            var filedAs: [Int64: String] = [:]
            for batch in batches {
                let story = StoryImport(author: batch.author, lifetime: 86_400)
                let (report, _) = try await library.importer.run([batch.folder], options: ImportOptions(story: story))
                #expect(report.imported.count == batch.items.count, "\(report)")
                for imported in report.imported { filedAs[imported.id] = batch.author }
            }
            #expect(filedAs.count == 3)

            var configuration = Configuration()
            configuration.readonly = true
            let rows = try DatabaseQueue(path: library.dataFolder.databasePath, configuration: configuration).read { db in
                try Row.fetchAll(db, sql: "SELECT post_id, author, archived, expires_at - posted_at AS lifetime FROM story_items ORDER BY post_id")
            }
            #expect(rows.count == 3)
            for row in rows {
                let postID: Int64 = row["post_id"]
                #expect(row["author"] == filedAs[postID])
                #expect(row["archived"] == false)
                #expect(row["lifetime"] == 86_400.0)
                let post = try #require(try await library.store.post(id: postID))
                #expect(post.metadata.uploader == (filedAs[postID] == "pexels-jane-doe" ? "Jane Doe" : "Ana Lima"))
            }
        }
    }
}
