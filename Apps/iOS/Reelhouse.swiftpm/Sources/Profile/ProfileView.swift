import ReelFeatures
import ReelModels
import SwiftUI

/// Profile: who is signed in where, the password, API keys, this device's preferences, the
/// libraries, what was hidden from For You, and Sign out.
struct ProfileView: View {
    let profile: ProfileModel
    @Environment(AppModel.self) private var appModel
    @Environment(SignedInSession.self) private var session
    @Environment(NetworkPathMonitor.self) private var network
    @State private var showsPassword = false
    @State private var confirmsClearHistory = false

    var body: some View {
        @Bindable var profile = profile
        List {
            Section("Account") {
                LabeledContent("Signed in as", value: profile.account?.name ?? "…")
                LabeledContent("Role", value: profile.account?.role ?? "…")
                LabeledContent("Server", value: appModel.serverAddress)
                Button("Change password…") { showsPassword = true }
            }
            Section {
                Toggle("Start videos muted", isOn: $profile.preferences.startMuted)
                Toggle("Captions when available", isOn: $profile.preferences.showCaptions)
                Toggle("Data saver", isOn: $profile.preferences.dataSaver)
                Toggle("Data saver with Low Data Mode", isOn: $profile.preferences.followsLowDataMode)
            } header: {
                Text("This device")
            } footer: {
                Text(network.savesData(profile.preferences) ? "Data saver is on: videos stay at the lower qualities." : "Data saver is off.")
            }
            APIKeysSection(profile: profile)
            librariesSection
            HiddenSection(profile: profile)
            Section {
                Button("Clear watch history", role: .destructive) { confirmsClearHistory = true }
                Button("Sign out", role: .destructive) { Task { await appModel.signOut() } }
            }
            if let error = profile.error {
                Section { Text(error.message).foregroundStyle(.red) }
            }
        }
        .navigationTitle("Profile")
        .sheet(isPresented: $showsPassword) { PasswordSheet(profile: profile) }
        .confirmationDialog("Clear your watch history? For You starts learning again.", isPresented: $confirmsClearHistory, titleVisibility: .visible) {
            Button("Clear history", role: .destructive) { Task { await profile.clearHistory() } }
        }
        .refreshable { await profile.load() }
        .task { await profile.load() }
    }

    private var librariesSection: some View {
        Section("Libraries") {
            ForEach(profile.libraries, id: \.id) { library in
                LabeledContent(library.name, value: "\(library.postCount) posts")
            }
            if session.context.isOwner {
                NameField(placeholder: "New library", action: "Add") { await profile.createLibrary(named: $0) }
            }
        }
    }
}

/// Posts marked "Not interested" and hidden uploaders, each with Undo.
struct HiddenSection: View {
    let profile: ProfileModel

    var body: some View {
        Section("Hidden from For You") {
            if profile.hiddenUploaders.isEmpty, profile.notInterested.isEmpty {
                Text("Nothing hidden").foregroundStyle(.secondary)
            }
            ForEach(profile.hiddenUploaders, id: \.uploader) { hidden in
                HStack {
                    Label(hidden.uploader, systemImage: "person.crop.circle.badge.xmark")
                    Spacer()
                    Button("Unhide") { Task { await profile.unhide(uploader: hidden.uploader) } }.buttonStyle(.borderless)
                }
            }
            ForEach(profile.notInterested, id: \.postID) { entry in
                HStack {
                    if let video = entry.video { PosterCell(item: video).frame(width: 36).clipShape(RoundedRectangle(cornerRadius: 4)) }
                    Text(entry.video?.description ?? "Post \(entry.postID)").lineLimit(1)
                    Spacer()
                    Button("Undo") { Task { await profile.undoNotInterested(entry.postID) } }.buttonStyle(.borderless)
                }
            }
        }
    }
}
