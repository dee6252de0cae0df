import Foundation

/// Turns Pexels resources into `SourceItem`s, choosing the file a short-form library wants.
enum PexelsItems {
    static let sourceName = "Pexels"

    /// HD: nothing beyond 1920 on the long side or 1080 on the short one. Larger renditions
    /// (2K, 4K) cost minutes of transcoding to end up at 1080p anyway.
    static let maxLongSide = 1920
    static let maxShortSide = 1080

    /// An item, or why the video cannot be used.
    static func item(_ video: PexelsWire.Video, query: SourceQuery) -> Result<SourceItem, ItemProblem> {
        guard let file = bestFile(video.videoFiles), let link = file.link.flatMap(httpURL) else {
            let only4K = video.videoFiles.contains { isMP4($0) && $0.link != nil }
            return .failure(ItemProblem(id: String(video.id), reason: only4K ? "only larger than HD (2K/4K) files" : "no MP4 file"))
        }
        let attribution = SourceAttribution(
            source: sourceName, author: text(video.user?.name), authorURL: text(video.user?.url).flatMap(webPage),
            pageURL: text(video.url).flatMap(webPage)
        )
        return .success(SourceItem(
            id: String(video.id), kind: .video, downloadURL: link, fileExtension: "mp4",
            width: file.width, height: file.height, duration: video.duration.flatMap { $0 > 0 ? $0 : nil },
            attribution: attribution, tags: tags(video.tags ?? [], query: query),
            description: attribution.pageURL.flatMap(titleFromPageURL)
        ))
    }

    static func item(_ photo: PexelsWire.Photo, query: SourceQuery) -> Result<SourceItem, ItemProblem> {
        // `large2x` keeps the whole picture at up to 1880×1300 (940×650 at 2×); `original`
        // can be 6000 px wide, so it is the last resort.
        let chosen = ["large2x", "large", "portrait", "original"].lazy.compactMap { key in
            photo.src[key].flatMap(httpURL).map { (key, $0) }
        }.first
        guard let (key, link) = chosen else { return .failure(ItemProblem(id: String(photo.id), reason: "no image file")) }
        let size = key == "original" ? (photo.width, photo.height) : fitted(photo.width, photo.height, key: key)
        let attribution = SourceAttribution(
            source: sourceName, author: text(photo.photographer), authorURL: text(photo.photographerURL).flatMap(webPage),
            pageURL: text(photo.url).flatMap(webPage)
        )
        let ext = link.pathExtension.lowercased()
        return .success(SourceItem(
            id: String(photo.id), kind: .photo, downloadURL: link, fileExtension: ["jpg", "jpeg", "png", "webp"].contains(ext) ? ext : "jpeg",
            width: size.0, height: size.1, duration: nil, attribution: attribution, tags: tags([], query: query),
            description: text(photo.alt) ?? attribution.pageURL.flatMap(titleFromPageURL)
        ))
    }

    /// The largest MP4 rendition within HD; never HLS, never beyond HD.
    static func bestFile(_ files: [PexelsWire.VideoFile]) -> PexelsWire.VideoFile? {
        files.filter { file in
            guard isMP4(file), file.link != nil, let width = file.width, let height = file.height, width > 0, height > 0 else { return false }
            return max(width, height) <= maxLongSide && min(width, height) <= maxShortSide
        }
        .max { ($0.width! * $0.height!) < ($1.width! * $1.height!) }
    }

    private static func isMP4(_ file: PexelsWire.VideoFile) -> Bool {
        guard file.quality?.lowercased() != "hls" else { return false }
        if let type = file.fileType?.lowercased() { return type == "video/mp4" }
        return file.link.flatMap(URL.init(string:))?.pathExtension.lowercased() == "mp4"
    }

    /// The size of a resized `src` rendition: Pexels fits the original inside the box
    /// (`large2x` 1880×1300, `large` 940×650) and crops `portrait` to 800×1200.
    private static func fitted(_ width: Int?, _ height: Int?, key: String) -> (Int?, Int?) {
        if key == "portrait" { return (800, 1200) }
        guard let width, let height, width > 0, height > 0 else { return (nil, nil) }
        let box = key == "large2x" ? (1880.0, 1300.0) : (940.0, 650.0)
        let scale = min(1, box.0 / Double(width), box.1 / Double(height))
        return (Int((Double(width) * scale).rounded()), Int((Double(height) * scale).rounded()))
    }

    /// The item's own tags, then the search words as one tag (what the person asked for).
    private static func tags(_ own: [String], query: SourceQuery) -> [String] {
        var tags = own.compactMap(text)
        if let search = query.search, search.count <= 64 { tags.append(search.lowercased()) }
        tags.append("pexels")
        return tags
    }

    /// Pexels video pages are named after the clip: `…/video/aerial-view-of-a-beach-2499611/`
    /// reads "Aerial view of a beach" (videos have no other description).
    static func titleFromPageURL(_ page: String) -> String? {
        guard let last = URLComponents(string: page)?.path.split(separator: "/").last else { return nil }
        var words = last.split(separator: "-").map(String.init)
        if let tail = words.last, tail.allSatisfy(\.isNumber) { words.removeLast() }
        guard !words.isEmpty, words.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber } }) else { return nil }
        let sentence = words.joined(separator: " ")
        return sentence.prefix(1).uppercased() + sentence.dropFirst()
    }

    private static func text(_ value: String?) -> String? {
        let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed?.isEmpty == false ? trimmed : nil
    }

    /// Only absolute http(s) links are downloaded or kept as pages.
    static func httpURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              url.host?.isEmpty == false else { return nil }
        return url
    }

    private static func webPage(_ text: String) -> String? { httpURL(text).map { _ in text } }
}

/// A listed item left out, and why.
struct ItemProblem: Error {
    let id: String
    let reason: String
}
