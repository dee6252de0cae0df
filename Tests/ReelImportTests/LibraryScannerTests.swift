import Foundation
import ReelModels
import Testing
@testable import ReelImport

@Suite("Scanning folders into candidates")
struct LibraryScannerTests {
    private func names(_ urls: [URL]) -> [String] { urls.map(\.lastPathComponent) }

    private func candidate(_ result: ScanResult, _ displayPath: String) -> ImportCandidate? {
        result.candidates.first { $0.displayPath == displayPath }
    }

    @Test func ytDLPVideoIsPairedWithItsInfoJSONAndThumbnailIgnored() throws {
        let tree = try TemporaryTree()
        try tree.files("Cat video [7216549873].mp4", "Cat video [7216549873].info.json", "Cat video [7216549873].webp")
        let result = try LibraryScanner.scan([tree.root])
        #expect(result.candidates == [ImportCandidate(
            kind: .video, mediaFiles: [tree.url("Cat video [7216549873].mp4")],
            sidecar: tree.url("Cat video [7216549873].info.json"), displayPath: "Cat video [7216549873].mp4"
        )])
        #expect(result.ignored == [IgnoredFile(path: "Cat video [7216549873].webp", reason: "thumbnail of Cat video [7216549873].mp4")])
    }

    @Test func instaloaderCarouselIsOneCandidateAndItsVideoAnother() throws {
        let tree = try TemporaryTree()
        let stem = "2023-07-22_04-26-40_UTC"
        try tree.files("\(stem)_10.jpg", "\(stem)_2.jpg", "\(stem)_1.jpg", "\(stem)_3.mp4", "\(stem)_3.jpg", "\(stem).json.xz", "\(stem).txt")
        let result = try LibraryScanner.scan([tree.root])

        let carousel = try #require(candidate(result, "\(stem)_1.jpg"))
        #expect(carousel.kind == .carousel)
        #expect(names(carousel.mediaFiles) == ["\(stem)_1.jpg", "\(stem)_2.jpg", "\(stem)_10.jpg"], "ordered by index, not by name")
        #expect(carousel.sidecar?.lastPathComponent == "\(stem).json.xz")
        #expect(carousel.captionFile?.lastPathComponent == "\(stem).txt")

        let video = try #require(candidate(result, "\(stem)_3.mp4"))
        #expect(video.kind == .video)
        #expect(video.sidecar == carousel.sidecar, "the group's video shares the post's sidecar")
        #expect(video.captionFile == carousel.captionFile)

        #expect(result.candidates.count == 2)
        #expect(result.ignored == [IgnoredFile(path: "\(stem)_3.jpg", reason: "thumbnail of \(stem)_3.mp4")])
    }

    @Test func instaloaderSingleVideoPost() throws {
        let tree = try TemporaryTree()
        let stem = "2023-08-01_10-00-00_UTC"
        try tree.files("\(stem).mp4", "\(stem).jpg", "\(stem).json", "\(stem).json.xz", "\(stem).txt")
        let result = try LibraryScanner.scan([tree.root])
        #expect(result.candidates.count == 1)
        #expect(result.candidates.first?.kind == .video)
        #expect(result.candidates.first?.sidecar?.lastPathComponent == "\(stem).json", "plain .json needs no decompression")
        #expect(result.candidates.first?.captionFile?.lastPathComponent == "\(stem).txt")
        #expect(result.ignored == [IgnoredFile(path: "\(stem).jpg", reason: "thumbnail of \(stem).mp4")], "the unused .json.xz is no orphan")
    }

    @Test func galleryDLSidecarsNamedAfterTheFullFileName() throws {
        let tree = try TemporaryTree()
        try tree.files(
            "1690000000000000001_1.jpg", "1690000000000000001_1.jpg.json",
            "1690000000000000001_2.jpg", "1690000000000000001_2.jpg.json",
            "photo.PNG", "photo.PNG.json", "other.webp", "other.json"
        )
        let result = try LibraryScanner.scan([tree.root])
        let tweet = try #require(candidate(result, "1690000000000000001_1.jpg"))
        #expect(tweet.kind == .carousel)
        #expect(tweet.sidecar?.lastPathComponent == "1690000000000000001_1.jpg.json")
        #expect(candidate(result, "photo.PNG")?.sidecar?.lastPathComponent == "photo.PNG.json")
        #expect(candidate(result, "photo.PNG")?.kind == .image)
        #expect(candidate(result, "other.webp")?.sidecar?.lastPathComponent == "other.json")
        #expect(result.candidates.count == 3)
        #expect(result.ignored.isEmpty, "the second image's own sidecar belongs to the post")
    }

    @Test func numberedImagesWithoutSidecarNeedARunFromOne() throws {
        let tree = try TemporaryTree()
        try tree.files("a/x_1.jpg", "a/x_2.jpg", "b/y_1.jpg", "c/IMG_1234.JPG", "c/IMG_1235.JPG", "d/z_1.jpg", "d/z_3.jpg")
        let result = try LibraryScanner.scan([tree.root])
        #expect(result.candidates.map(\.displayPath) == ["a/x_1.jpg", "b/y_1.jpg", "c/IMG_1234.JPG", "c/IMG_1235.JPG", "d/z_1.jpg", "d/z_3.jpg"])
        #expect(result.candidates.map(\.kind) == [.carousel, .image, .image, .image, .image, .image])
        #expect(names(result.candidates[0].mediaFiles) == ["x_1.jpg", "x_2.jpg"])
    }

    @Test func singleIndexedImageWithASidecarIsAnImageWithThatSidecar() throws {
        let tree = try TemporaryTree()
        try tree.files("p_1.jpg", "p.json")
        let result = try LibraryScanner.scan([tree.root])
        #expect(result.candidates.map(\.kind) == [.image])
        #expect(result.candidates.first?.sidecar?.lastPathComponent == "p.json")
    }

    @Test func typesAreJudgedByExtensionIgnoringCase() throws {
        let tree = try TemporaryTree()
        try tree.files("A.MOV", "b.m4v", "c.WebM", "d.mkv", "e.gif", "f.jpeg", "g.heic", "h.HEIF", "i.Jpg", "j.png")
        let result = try LibraryScanner.scan([tree.root])
        #expect(result.candidates.map(\.kind) == [.video, .video, .video, .video, .video, .image, .image, .image, .image, .image])
        #expect(MediaFileType(pathExtension: "GIF") == .video)
        #expect(MediaFileType(pathExtension: "txt") == nil)
    }

    @Test func hiddenJunkUnsupportedAndOrphans() throws {
        let tree = try TemporaryTree()
        try tree.files(
            "clip.mp4", ".DS_Store", ".hidden.mp4", ".cache/secret.mp4", "Thumbs.db", "desktop.ini",
            "notes.PDF", "README", "orphan.json", "stray.txt", "next.mp4.part", "archive.xz"
        )
        let result = try LibraryScanner.scan([tree.root])
        #expect(result.candidates.map(\.displayPath) == ["clip.mp4"])
        #expect(result.ignored == [
            IgnoredFile(path: "README", reason: "unsupported file type (no extension)"),
            IgnoredFile(path: "archive.xz", reason: "unsupported file type .xz"),
            IgnoredFile(path: "next.mp4.part", reason: "unfinished download"),
            IgnoredFile(path: "notes.PDF", reason: "unsupported file type .pdf"),
            IgnoredFile(path: "orphan.json", reason: "metadata file without a matching media file"),
            IgnoredFile(path: "stray.txt", reason: "text file without a matching media file"),
        ])
    }

    @Test func nestedFoldersAreScannedAndPairedPerFolder() throws {
        let tree = try TemporaryTree()
        try tree.files("one/two/three/deep.webm", "one/two/three/deep.info.json", "one/top.mp4", "one/two/deep.info.json")
        let result = try LibraryScanner.scan([tree.root])
        #expect(result.candidates.map(\.displayPath) == ["one/top.mp4", "one/two/three/deep.webm"])
        #expect(result.candidates[1].sidecar == tree.url("one/two/three/deep.info.json"))
        #expect(result.ignored == [IgnoredFile(path: "one/two/deep.info.json", reason: "metadata file without a matching media file")])
    }

    @Test func symbolicLinkLoopsEndAndLinkedFilesCountOnce() throws {
        let tree = try TemporaryTree()
        try tree.files("library/a/clip.mp4", "library/a/clip.info.json")
        try tree.link("library/a/loop", to: "..")
        try tree.link("library/a/self", to: "self")
        try tree.link("library/alias.mp4", to: "a/clip.mp4")
        try tree.link("library/dangling.mp4", to: "missing.mp4")
        try tree.link("elsewhere", to: tree.url("library").path)
        try tree.files("outside/own.mp4")
        try tree.link("library/outside", to: "../outside")

        let result = try LibraryScanner.scan([tree.url("library"), tree.url("elsewhere")])
        #expect(result.candidates.map(\.displayPath) == ["a/clip.mp4", "outside/own.mp4"])
        #expect(result.candidates.first?.sidecar != nil, "the real file wins over the link that was listed first")
        #expect(result.ignored == [
            IgnoredFile(path: "a/self", reason: "broken symbolic link"),
            IgnoredFile(path: "dangling.mp4", reason: "broken symbolic link"),
        ])
    }

    @Test func aSingleFileRootFindsItsSidecarButNotItsSiblings() throws {
        let tree = try TemporaryTree()
        try tree.files("dl/clip.mp4", "dl/clip.info.json", "dl/other.mp4", "dl/orphan.json", "dl/p_1.jpg", "dl/p_2.jpg", "dl/p.json.xz")
        let clip = try LibraryScanner.scan([tree.url("dl/clip.mp4")])
        #expect(clip == ScanResult(candidates: [ImportCandidate(
            kind: .video, mediaFiles: [tree.url("dl/clip.mp4")], sidecar: tree.url("dl/clip.info.json"), displayPath: "clip.mp4"
        )]))
        let member = try LibraryScanner.scan([tree.url("dl/p_2.jpg")])
        #expect(member.candidates.map(\.kind) == [.image])
        #expect(member.candidates.first?.sidecar?.lastPathComponent == "p.json.xz")

        let notMedia = try LibraryScanner.scan([tree.url("dl/clip.info.json")])
        #expect(notMedia.ignored == [IgnoredFile(path: "clip.info.json", reason: "metadata file without a matching media file")])
    }

    @Test func overlappingRootsYieldEachFileOnce() throws {
        let tree = try TemporaryTree()
        try tree.files("a/one.mp4", "a/b/two.mp4")
        let result = try LibraryScanner.scan([tree.url("a/b"), tree.url("a"), tree.url("a/one.mp4")])
        #expect(result.candidates.map(\.displayPath) == ["two.mp4", "one.mp4"])
    }

    @Test func missingRootThrows() throws {
        let tree = try TemporaryTree()
        let missing = tree.url("nope")
        #expect(throws: ImportError.rootNotFound(missing.path)) { try LibraryScanner.scan([missing]) }
    }

    @Test func scanningIsDeterministic() throws {
        let tree = try TemporaryTree()
        try tree.files("b.mp4", "a.mp4", "z/c.jpg", "Z.mp4", "é.mp4", "y.mkv")
        let first = try LibraryScanner.scan([tree.root])
        #expect(first == (try LibraryScanner.scan([tree.root])))
        #expect(first.candidates.map(\.displayPath) == ["Z.mp4", "a.mp4", "b.mp4", "y.mkv", "z/c.jpg", "é.mp4"])
    }
}
