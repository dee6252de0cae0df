import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestFiles

/// Media makers for tests that need a published post without running ffmpeg: small but
/// well-formed HLS files on disk (master, one 240p rung, init, segments, a poster) and the
/// store row that points at them.
public enum TestMedia {
    /// Publishes a ready post whose files live in `mediaRoot/<post id>/`.
    @discardableResult
    public static func publishVideo(
        name: String, store: SQLiteStore, mediaRoot: URL, tags: [String] = [], encrypted: Bool = true, kind: PostKind = .video,
        segments: Int = 1, segmentBytes: Int = 1000, posterHash: String? = nil, libraryID: Int64 = Post.defaultLibraryID,
        withDownload: Bool = false
    ) async throws -> Post {
        let (post, _) = try await store.insertPost(
            NewPost(kind: kind, folderName: name, metadata: PostMetadata(description: "about \(name)", uploader: "Up", username: "up", tags: tags),
                    contentHash: UUID().uuidString, sourcePaths: ["sources/\(name).mp4"], dateAdded: Date(), libraryID: libraryID),
            maxAttempts: 3, now: Date()
        )
        let folder = mediaRoot.appendingPathComponent("\(post.id)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("240p"), withIntermediateDirectories: true)
        let master = "#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=400000,AVERAGE-BANDWIDTH=300000,RESOLUTION=240x426,CODECS=\"avc1.64001e,mp4a.40.2\",FRAME-RATE=30.000\n240p/index.m3u8\n"
        var media = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        if encrypted { media += "#EXT-X-KEY:METHOD=AES-128,URI=\"../key\"\n" }
        let names = (0..<segments).map { String(format: "seg_%05d.m4s", $0) }
        for name in names { media += "#EXTINF:2.000000,\n\(name)\n" }
        media += "#EXT-X-ENDLIST\n"
        try Data(master.utf8).write(to: folder.appendingPathComponent("master.m3u8"))
        try Data(media.utf8).write(to: folder.appendingPathComponent("240p/index.m3u8"))
        try Data(repeating: 1, count: 100).write(to: folder.appendingPathComponent("240p/init.mp4"))
        for (index, name) in names.enumerated() {
            try Data((0..<segmentBytes).map { UInt8(($0 + index) % 251) }).write(to: folder.appendingPathComponent("240p/\(name)"))
        }
        try Data(repeating: UInt8(post.id % 200), count: 300).write(to: folder.appendingPathComponent("poster.jpg"))
        // Not a playable MP4: bytes that stand for the progressive download file.
        if withDownload { try Data("download of \(name)".utf8).write(to: folder.appendingPathComponent("download.mp4")) }
        let published = PublishedMedia(
            duration: 2 * Double(segments), width: 240, height: 426, hasSourceAudio: true, encrypted: encrypted, masterPlaylist: "master.m3u8",
            renditions: [Rendition(name: "240p", width: 240, height: 426, frameRate: 30, bandwidth: 400_000, averageBandwidth: 300_000,
                                   codecs: "avc1.64001e,mp4a.40.2", playlist: "240p/index.m3u8", initSegment: "240p/init.mp4",
                                   segments: names.map { "240p/\($0)" })],
            poster: ImageFile(path: "poster.jpg", width: 240, height: 426,
                              contentHash: posterHash ?? String(UInt64(post.id) &* 0x9E37_79B9_7F4A_7C15, radix: 16)),
            thumbnail: nil, download: withDownload ? "download.mp4" : nil, images: []
        )
        try await store.publish(postID: post.id, media: published, key: encrypted ? Data(repeating: 9, count: 16) : nil)
        guard let published = try await store.post(id: post.id) else { throw TestSupportError("post \(post.id) vanished after publishing") }
        return published
    }
}

extension TestMedia {
    /// A real 2-second H.264 clip made by ffmpeg, for uploads through the server's ffprobe import.
    public static func makeClip(prefix: String = "upload") throws -> URL {
        let url = TemporaryFolder.fresh(prefix, suffix: ".mp4")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=240x426:rate=15",
                             "-t", "2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", url.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestSupportError("ffmpeg could not make a clip") }
        return url
    }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
