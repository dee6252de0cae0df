import AsyncHTTPClient
import Foundation
import ReelSources

/// Fake catalogue entries shaped like Pexels' own, and a source pointed at the fake server.
enum Catalogue {
    /// A portrait video with SD, HD and 4K renditions, of which only the HD file exists on the
    /// server: choosing any other rendition shows up as a missing file.
    static func video(_ id: Int, by user: String = "Jane Doe", title: String = "waves at dusk") -> FakePexelsState.Video {
        let handle = user.lowercased().replacingOccurrences(of: " ", with: "-")
        return FakePexelsState.Video(
            id: id, user: user, userURL: "https://www.pexels.com/@\(handle)",
            page: "https://www.pexels.com/video/\(title.replacingOccurrences(of: " ", with: "-"))-\(id)/",
            renditions: [
                ("sd", 360, 640, "\(id)-sd.mp4"), ("hd", 1080, 1920, "\(id)-hd.mp4"), ("uhd", 2160, 3840, "\(id)-uhd.mp4"),
            ]
        )
    }

    /// A video Pexels only has in 4K: listed, but left out.
    static func video4KOnly(_ id: Int) -> FakePexelsState.Video {
        var video = video(id, by: "Big Files")
        video.renditions = [("uhd", 2160, 3840, "\(id)-uhd.mp4"), ("uhd", 4096, 2160, "\(id)-uhd2.mp4")]
        return video
    }

    static func photo(_ id: Int, by photographer: String = "José Núñez", alt: String = "A lighthouse on a cliff") -> FakePexelsState.Photo {
        FakePexelsState.Photo(
            id: id, photographer: photographer, photographerURL: "https://www.pexels.com/@jose-nunez-\(id)",
            page: "https://www.pexels.com/photo/lighthouse-\(id)/", alt: alt, file: "\(id).jpeg"
        )
    }

    /// Puts `videos` on the server with the same (real) clip behind every HD link.
    static func serve(_ videos: [FakePexelsState.Video], clip: Data, on state: FakePexelsState) async {
        await state.configure { state in
            state.videos = videos
            for video in videos where video.renditions.contains(where: { $0.quality == "hd" }) {
                state.files["\(video.id)-hd.mp4"] = clip
            }
        }
    }

    static func source(
        _ baseURL: String, key: String = FakePexelsServer.apiKey, clock: TestClock, policy: RateLimitPolicy = RateLimitPolicy()
    ) throws -> PexelsSource {
        try PexelsSource(client: .shared, apiKey: key, baseURL: baseURL, clock: clock, policy: policy)
    }
}
