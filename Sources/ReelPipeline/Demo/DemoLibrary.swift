import Foundation
import ReelMedia
import ReelProcess
import ReelStorage

/// The demo library `make run` creates when the library is empty: a dozen short, varied clips
/// from ffmpeg's generators (portrait and landscape, some with audio, captions burned in),
/// each with a yt-dlp-style sidecar, plus two image posts and a carousel, and `DemoStories`'
/// saved stories of three accounts. Planned as data; `generate` runs it.
public enum DemoLibrary {
    public struct Clip: Sendable, Equatable {
        public var name: String
        public var source: String
        public var width: Int
        public var height: Int
        public var seconds: Double
        public var audioFrequency: Int?
        public var caption: String
        public var uploader: String
        public var tags: [String]
    }

    public static let clips: [Clip] = [
        Clip(name: "sunrise-bars", source: "smptehdbars", width: 720, height: 1280, seconds: 6, audioFrequency: 440, caption: "Colour bars at sunrise", uploader: "Test Card Club", tags: ["retro", "broadcast"]),
        Clip(name: "mandelbrot-dive", source: "mandelbrot", width: 720, height: 1280, seconds: 8, audioFrequency: nil, caption: "Diving into the Mandelbrot set", uploader: "Fractal Friends", tags: ["math", "fractal"]),
        Clip(name: "game-of-life", source: "life=mold=10:ratio=0.4:death_color=#102030:life_color=#40e0d0", width: 540, height: 960, seconds: 7, audioFrequency: 220, caption: "Conway's Game of Life, one generation a frame", uploader: "Cellular", tags: ["math", "simulation"]),
        Clip(name: "test-pattern", source: "testsrc2", width: 1280, height: 720, seconds: 5, audioFrequency: 660, caption: "The classic test pattern, landscape", uploader: "Test Card Club", tags: ["retro"]),
        Clip(name: "rgb-sweep", source: "rgbtestsrc", width: 720, height: 1280, seconds: 5, audioFrequency: nil, caption: "Pure red, green and blue", uploader: "Colour Lab", tags: ["colour"]),
        Clip(name: "cellular-automaton", source: "cellauto=rule=110", width: 720, height: 1280, seconds: 6, audioFrequency: 330, caption: "Rule 110 growing down the screen", uploader: "Cellular", tags: ["math", "simulation"]),
        Clip(name: "sierpinski", source: "sierpinski", width: 720, height: 720, seconds: 6, audioFrequency: nil, caption: "A square of Sierpiński carpet", uploader: "Fractal Friends", tags: ["fractal"]),
        Clip(name: "pal-bars", source: "pal75bars", width: 720, height: 1280, seconds: 5, audioFrequency: 550, caption: "PAL colour bars, 75 per cent", uploader: "Colour Lab", tags: ["colour", "broadcast"]),
        Clip(name: "gradient-drift", source: "gradients=speed=0.02", width: 720, height: 1280, seconds: 7, audioFrequency: 262, caption: "Slow gradients for a calm minute", uploader: "Ambient", tags: ["calm"]),
        Clip(name: "wide-mandelbrot", source: "mandelbrot=start_scale=2", width: 1280, height: 720, seconds: 6, audioFrequency: 392, caption: "Mandelbrot, landscape edition", uploader: "Fractal Friends", tags: ["fractal", "landscape"]),
        Clip(name: "colour-card", source: "color=c=0x2b6cb0", width: 720, height: 1280, seconds: 4, audioFrequency: 494, caption: "Just a blue card with words on it", uploader: "Ambient", tags: ["calm", "colour"]),
        Clip(name: "test-portrait", source: "testsrc", width: 720, height: 1280, seconds: 5, audioFrequency: nil, caption: "Another test pattern, portrait", uploader: "Test Card Club", tags: ["retro"]),
    ]

    /// Subtitle sidecars (`<clip>.<language>.vtt`), so the demo has captions to switch on.
    public static let subtitles: [String: [(language: String, text: String)]] = [
        "sunrise-bars": [
            ("en", "WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nSeven bars, brightest first.\n\n00:00:03.000 --> 00:00:06.000\nUnder them, the tone of 440 Hz.\n"),
            ("fr", "WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nSept barres, la plus claire d’abord.\n\n00:00:03.000 --> 00:00:06.000\nDessous, la tonalité de 440 Hz.\n"),
        ],
    ]

    public struct Image: Sendable, Equatable {
        public var name: String
        public var source: String
        public var width: Int
        public var height: Int
        public var caption: String
    }

    public static let images: [Image] = [
        Image(name: "still-bars", source: "smptebars", width: 1080, height: 1350, caption: "A still of colour bars"),
        Image(name: "still-pattern", source: "testsrc2", width: 1080, height: 1080, caption: "A square test pattern"),
    ]

    /// One instaloader-style carousel (`postcards_1.jpg` … `postcards_3.jpg` + `postcards.txt`),
    /// so the demo shows sideways swiping too.
    public static let carousel = (
        name: "postcards", caption: "Three postcards from the test-card coast #retro",
        slides: [
            Image(name: "postcards_1", source: "rgbtestsrc", width: 1080, height: 1350, caption: ""),
            Image(name: "postcards_2", source: "mandelbrot", width: 1080, height: 1350, caption: ""),
            Image(name: "postcards_3", source: "smptehdbars", width: 1080, height: 1350, caption: ""),
        ]
    )

    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// ffmpeg arguments that render one clip with its caption burned in.
    public static func arguments(for clip: Clip, output: String) -> [String] {
        var arguments = ["-hide_banner", "-loglevel", "error", "-y",
                         "-f", "lavfi", "-i", lavfi(clip.source, "size=\(clip.width)x\(clip.height):rate=30")]
        if let frequency = clip.audioFrequency {
            arguments += ["-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=48000"]
        }
        var filter = ""
        if FileManager.default.fileExists(atPath: font) {
            let size = max(24, min(clip.width, clip.height) / 18)
            // Wrapped to the frame (DejaVu Sans Bold is ≈ 0.62 em per character), so a long
            // caption on a portrait clip is not cut off at both edges; placed above the lower
            // fifth, where players draw their own overlay.
            let perLine = max(10, Int(Double(clip.width) / (Double(size) * 0.62)) - 2)
            let caption = CardCommand.wrap(clip.caption, width: perLine, maxLines: 3)
            filter = "drawtext=fontfile=\(font):text='\(escape(caption))':line_spacing=\(size / 4):fontcolor=white:fontsize=\(size):box=1:boxcolor=black@0.5:boxborderw=12:x=(w-text_w)/2:y=h*0.6"
        }
        if !filter.isEmpty { arguments += ["-vf", filter] }
        arguments += ["-t", String(clip.seconds), "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]
        if clip.audioFrequency != nil { arguments += ["-c:a", "aac", "-b:a", "96k"] }
        arguments += ["-movflags", "+faststart", output]
        return arguments
    }

    public static func arguments(for image: Image, output: String) -> [String] {
        ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", lavfi(image.source, "size=\(image.width)x\(image.height)"),
         "-frames:v", "1", "-q:v", "3", output]
    }

    /// A yt-dlp-style sidecar for a clip.
    public static func sidecar(for clip: Clip, index: Int) -> [String: Any] {
        [
            "id": "demo\(index + 1)", "title": clip.caption, "description": clip.caption + " " + clip.tags.map { "#\($0)" }.joined(separator: " "),
            "uploader": clip.uploader, "uploader_id": clip.uploader.lowercased().replacingOccurrences(of: " ", with: "."),
            "timestamp": 1_700_000_000 + index * 86_400, "tags": clip.tags, "extractor": "reelhouse-demo",
            "webpage_url": "https://example.com/demo/\(clip.name)",
        ]
    }

    /// Appends options to a lavfi source that may already have some (`life=mold=10`).
    static func lavfi(_ source: String, _ options: String) -> String {
        source.contains("=") ? "\(source):\(options)" : "\(source)=\(options)"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\u{2019}").replacingOccurrences(of: ":", with: "\\:")
    }

    /// Renders the demo into `folder` in batches and hands each batch's folder to `ready` as
    /// soon as its files exist, so a server can import it while the rest is rendered: first
    /// the stills (they need no transcode: the feed has posts within seconds), then each clip
    /// in a folder of its own (one clip is transcoded while ffmpeg renders the next), then the
    /// story archive. A batch already rendered by an earlier, stopped run is handed over again
    /// as it is (an import skips what it already has). The work folder, there from the first
    /// batch on, goes last: while it is there the demo is unfinished.
    public static func generate(into folder: URL, runner: any ProcessRunner, ready: (URL) async throws -> Void) async throws {
        try await batch("stills", in: folder, ready: ready) { stills in
            for image in images {
                try await render(arguments(for: image, output: stills.appendingPathComponent("\(image.name).jpg").path), "demo image \(image.name)", runner)
                try Data(image.caption.utf8).write(to: stills.appendingPathComponent("\(image.name).txt"))
            }
            for slide in carousel.slides {
                try await render(arguments(for: slide, output: stills.appendingPathComponent("\(slide.name).jpg").path), "demo slide \(slide.name)", runner)
            }
            try Data(carousel.caption.utf8).write(to: stills.appendingPathComponent("\(carousel.name).txt"))
        }
        for (index, clip) in clips.enumerated() {
            try await batch("clips/\(clip.name)", in: folder, ready: ready) { directory in
                try await render(arguments(for: clip, output: directory.appendingPathComponent("\(clip.name).mp4").path), "demo clip \(clip.name)", runner)
                let json = try JSONSerialization.data(withJSONObject: sidecar(for: clip, index: index), options: [.sortedKeys])
                try json.write(to: directory.appendingPathComponent("\(clip.name).info.json"))
                for (language, text) in subtitles[clip.name] ?? [] {
                    try Data(text.utf8).write(to: directory.appendingPathComponent("\(clip.name).\(language).vtt"))
                }
            }
        }
        try await batch("archive", in: folder, ready: ready) { try await DemoStories.generate(into: $0, runner: runner) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent(workFolder))
    }

    /// Whether a demo was begun in `folder` and not completed (its start was stopped). A demo
    /// made by an older release, all at once before the server listened, has no work folder:
    /// it is complete, and is never rendered and imported again.
    public static func isUnfinished(in folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(workFolder).path)
    }

    static let workFolder = ".rendering"

    /// Renders one batch in a work folder and moves it into place whole, so a batch folder that
    /// exists is complete (one stopped mid-render is rendered again); then hands it to `ready`.
    private static func batch(
        _ name: String, in folder: URL, ready: (URL) async throws -> Void, render: (URL) async throws -> Void
    ) async throws {
        let files = FileManager.default
        let done = folder.appendingPathComponent(name, isDirectory: true)
        if !files.fileExists(atPath: done.path) {
            let work = folder.appendingPathComponent("\(workFolder)/\(name)", isDirectory: true)
            try? files.removeItem(at: work)
            try files.createDirectory(at: work, withIntermediateDirectories: true)
            try await render(work)
            try files.createDirectory(at: done.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files.moveItem(at: work, to: done)
        }
        try await ready(done)
    }

    private static func render(_ arguments: [String], _ what: String, _ runner: any ProcessRunner) async throws {
        let result = try await runner.run("ffmpeg", arguments)
        guard result.succeeded else { throw PipelineError.toolFailed("ffmpeg", "\(what): \(result.stderrTail)") }
    }
}
