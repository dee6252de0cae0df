import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// Captions on the wire: `captions` on items (omitted without subtitles, so seed 000's client
/// sees the item unchanged) and the subtitle renditions' files under the post's signed URLs,
/// listed names only.
@Suite("Captions: items and subtitle files")
struct CaptionRouteTests {
    static let segment = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:5941,LOCAL:00:00:00.000\n\n00:00:00.500 --> 00:00:01.500\nCrème brûlée — 日本語\n"

    /// Republishes `post` with an English and a Brazilian Portuguese rendition on disk.
    static func addSubtitles(to post: Post, server: TestServer) async throws -> Post {
        let folder = server.root.appendingPathComponent("media/\(post.id)")
        var tracks: [SubtitleTrack] = []
        for (tag, name) in [("en", "English"), ("pt-BR", "Portuguese (Brazil)")] {
            let directory = folder.appendingPathComponent("subtitles/\(tag)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.000000,\nseg_00000.vtt\n#EXT-X-ENDLIST\n".utf8)
                .write(to: directory.appendingPathComponent("index.m3u8"))
            try Data(segment.utf8).write(to: directory.appendingPathComponent("seg_00000.vtt"))
            tracks.append(SubtitleTrack(
                tag: tag, language: tag, name: name, playlist: "subtitles/\(tag)/index.m3u8",
                segments: ["subtitles/\(tag)/seg_00000.vtt"]
            ))
        }
        // A damaged row: a listed name that climbs out of the folder must still never be served.
        tracks.append(SubtitleTrack(tag: "xx", language: "xx", name: "Broken", playlist: "subtitles/../../../reelhouse.sqlite", segments: []))
        var media = try #require(post.media)
        media.subtitles = tracks
        try await server.store.publish(postID: post.id, media: media, key: Data(repeating: 9, count: 16))
        return try #require(try await server.store.post(id: post.id))
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func itemsListCaptionsOnlyWhenThereAreSome() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        let plain = try await server.publishVideo(name: "plain")
        let captioned = try await Self.addSubtitles(to: try await server.publishVideo(name: "captioned"), server: server)
        try await server.application().test(.router) { client in
            let plainDetail = try Self.object(try await client.send(.get, "/api/v1/videos/\(plain.id)", key: server.memberKey).body)
            #expect(plainDetail["captions"] == nil, "no key at all without subtitles")

            let detail = try await client.send(.get, "/api/v1/videos/\(captioned.id)", key: server.memberKey)
            let video = try decode(APIVideo.self, detail.body)
            #expect(video.captions?.map(\.language) == ["en", "pt-BR", "xx"])
            #expect(video.captions?.first == APICaption(language: "en", name: "English"))

            // The feed's cached, pre-encoded items carry the same field.
            let page = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?limit=10", key: server.memberKey).body)
            #expect(page.items.first { $0.id == captioned.id }?.captions == video.captions)
            #expect(page.items.first { $0.id == plain.id }?.captions == nil)
        }
    }

    @Test func subtitleFilesAreServedUnderTheSignedURLOnlyWhenListed() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        let post = try await Self.addSubtitles(to: try await server.publishVideo(name: "captioned"), server: server)
        try await server.application().test(.router) { client in
            let video = try decode(APIVideo.self, try await client.send(.get, "/api/v1/videos/\(post.id)", key: server.memberKey).body)
            let base = try #require(video.media.master).replacingOccurrences(of: "/master.m3u8", with: "")
            let segment = try await client.send(.get, "\(base)/subtitles/pt-BR/seg_00000.vtt")
            #expect(segment.status == .ok)
            #expect(segment.headers[.contentType] == "text/vtt; charset=utf-8")
            #expect(String(decoding: segment.body, as: UTF8.self) == Self.segment)
            let playlist = try await client.send(.get, "\(base)/subtitles/en/index.m3u8")
            #expect(playlist.status == .ok && playlist.headers[.contentType] == "application/vnd.apple.mpegurl")

            let refused = [
                "subtitles/../../../reelhouse.sqlite", "subtitles/%2e%2e/%2e%2e/reelhouse.sqlite", "subtitles/de/index.m3u8",
                "subtitles/EN/index.m3u8", "subtitles/en/seg_00000.vtt/", "subtitles/en//seg_00000.vtt", "subtitles/en",
                "subtitles/en/seg_00001.vtt", "subtitles/en/../pt-BR/index.m3u8",
            ]
            for name in refused {
                let response = try await client.send(.get, "\(base)/\(name)")
                #expect(response.status == .notFound, "\(name)")
                #expect(!String(decoding: response.body, as: UTF8.self).contains("SQLite format"), "\(name)")
            }
            // Seed 000's routes resolve the master's subtitle URIs too (AVPlayer may fetch them).
            let folder = "/videos/\(post.folderName)"
            let compatPlaylist = try await client.send(.get, "\(folder)/subtitles/en/index.m3u8")
            #expect(compatPlaylist.status == .ok && compatPlaylist.headers[.contentType] == "application/vnd.apple.mpegurl")
            let compatSegment = try await client.send(.get, "\(folder)/subtitles/pt-BR/seg_00000.vtt")
            #expect(compatSegment.status == .ok && String(decoding: compatSegment.body, as: UTF8.self) == Self.segment)
            for name in ["subtitles/de/index.m3u8", "subtitles/../../../reelhouse.sqlite", "subtitles/en/../../master.m3u8"] {
                #expect(try await client.send(.get, "\(folder)/\(name)").status == .notFound, "\(name)")
            }
            // Another post's token does not open these files.
            let other = try await server.publishVideo(name: "other")
            let otherVideo = try decode(APIVideo.self, try await client.send(.get, "/api/v1/videos/\(other.id)", key: server.memberKey).body)
            let otherToken = try #require(otherVideo.media.master?.split(separator: "/").dropFirst().first)
            #expect(try await client.send(.get, "/media/\(otherToken)/\(post.id)/subtitles/en/index.m3u8").status == .forbidden)
        }
    }
}
