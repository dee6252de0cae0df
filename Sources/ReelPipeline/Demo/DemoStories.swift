import Foundation
import ReelMedia
import ReelProcess
import ReelStorage

/// The demo library's stories: three accounts' saved stories, written the way instaloader
/// saves them (`stories/<account>/<date>_UTC.mp4|jpg` beside a `StoryItem` sidecar), so the
/// first tray a new user sees comes through the same import path a real archive takes. Times
/// are minutes before the demo is made; archived stories do not expire, so the tray stays.
public enum DemoStories {
    public struct Item: Sendable, Equatable {
        /// A lavfi source; a video when `seconds` is set, a still otherwise.
        public var source: String
        public var seconds: Double?
        public var caption: String
    }

    public struct Account: Sendable, Equatable {
        public var username: String
        public var items: [Item]
    }

    public static let accounts: [Account] = [
        Account(username: "colour.lab", items: [
            Item(source: "rgbtestsrc", seconds: 4, caption: "Mixing the primaries today"),
            Item(source: "color=c=0xd53f8c", seconds: nil, caption: "Magenta, straight from the tube"),
        ]),
        Account(username: "fractal.friends", items: [
            Item(source: "mandelbrot", seconds: 5, caption: "Zooming in, live"),
            Item(source: "sierpinski", seconds: nil, caption: "A carpet for the hallway"),
        ]),
        Account(username: "test.card.club", items: [
            Item(source: "smptehdbars", seconds: nil, caption: "Bars before breakfast"),
            Item(source: "testsrc2", seconds: 4, caption: "Counting down to the broadcast"),
        ]),
    ]

    static let width = 540
    static let height = 960

    /// The instaloader file stem of an item posted at `date`: `2026-11-25_08-00-00_UTC`.
    static func stem(for date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d_%02d-%02d-%02d_UTC", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    static func arguments(for item: Item, output: String) -> [String] {
        let input = DemoLibrary.lavfi(item.source, "size=\(width)x\(height):rate=30")
        guard let seconds = item.seconds else {
            return ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", DemoLibrary.lavfi(item.source, "size=\(width)x\(height)"),
                    "-frames:v", "1", "-q:v", "3", output]
        }
        return ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", input, "-t", String(seconds),
                "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-movflags", "+faststart", output]
    }

    /// instaloader's sidecar of a story item (`{"node": …, "instaloader": {"node_type": "StoryItem"}}`).
    static func sidecar(for item: Item, account: String, postedAt: Date, id: Int) -> [String: Any] {
        let taken = postedAt.timeIntervalSince1970.rounded()
        return [
            "node": [
                "__typename": item.seconds == nil ? "GraphStoryImage" : "GraphStoryVideo",
                "id": "\(3_300_000_000_000_000_000 + id)", "is_video": item.seconds != nil,
                "owner": ["username": account], "taken_at_timestamp": taken, "expiring_at_timestamp": taken + 86_400,
                "dimensions": ["width": width, "height": height], "accessibility_caption": item.caption,
            ] as [String: Any],
            "instaloader": ["node_type": "StoryItem", "version": "4.14"],
        ]
    }

    /// Renders every account's items and sidecars under `folder/stories/`, posted in the
    /// minutes before `now` (oldest first, one account after another).
    public static func generate(into folder: URL, runner: any ProcessRunner, now: Date = Date()) async throws {
        let total = accounts.reduce(0) { $0 + $1.items.count }
        var index = 0
        for account in accounts {
            let directory = folder.appendingPathComponent("stories/\(account.username)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for item in account.items {
                let postedAt = now.addingTimeInterval(Double(index - total) * 600)
                let stem = stem(for: postedAt)
                let output = directory.appendingPathComponent(stem + (item.seconds == nil ? ".jpg" : ".mp4"))
                let result = try await runner.run("ffmpeg", arguments(for: item, output: output.path))
                guard result.succeeded else { throw PipelineError.toolFailed("ffmpeg", "demo story of \(account.username): \(result.stderrTail)") }
                let json = try JSONSerialization.data(withJSONObject: sidecar(for: item, account: account.username, postedAt: postedAt, id: index), options: [.sortedKeys])
                try json.write(to: directory.appendingPathComponent(stem + ".json"))
                index += 1
            }
        }
    }
}
