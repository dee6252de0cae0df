import ReelFeatures
import ReelModels
import SwiftUI
import UIKit

/// API keys: each by name and prefix (swipe to revoke); a new key's secret shown once, to copy.
struct APIKeysSection: View {
    let profile: ProfileModel

    var body: some View {
        Section {
            if let secret = profile.newKeySecret {
                VStack(alignment: .leading, spacing: 8) {
                    Text("Copy this key now: it is not shown again.").font(.footnote.bold())
                    Text(secret).font(.system(.footnote, design: .monospaced)).textSelection(.enabled)
                    HStack {
                        Button("Copy") { UIPasteboard.general.string = secret }
                        Spacer()
                        Button("Done") { profile.dismissNewKey() }
                    }
                    .buttonStyle(.borderless)
                }
            }
            ForEach(profile.keys, id: \.id) { key in
                VStack(alignment: .leading, spacing: 2) {
                    Text(key.name)
                    Text("\(key.prefix)… · " + (key.lastUsedAt.map { "used \($0.formatted(.relative(presentation: .named)))" } ?? "never used"))
                        .font(.caption).foregroundStyle(.secondary)
                }
                .swipeActions {
                    Button("Revoke", role: .destructive) { Task { await profile.revokeKey(key.id) } }
                }
            }
            NameField(placeholder: "Key name, such as the device", action: "Create") { await profile.createKey(named: $0) }
        } header: {
            Text("API keys")
        } footer: {
            Text("A key signs in a device or a script without your password.")
        }
    }
}

/// Current password, the new one twice; the model checks what it can before the server does.
struct PasswordSheet: View {
    let profile: ProfileModel
    @State private var current = ""
    @State private var new = ""
    @State private var confirmation = ""
    @State private var saving = false
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            Form {
                SecureField("Current password", text: $current).textContentType(.password)
                SecureField("New password", text: $new).textContentType(.newPassword)
                SecureField("New password again", text: $confirmation).textContentType(.newPassword)
                if let message = profile.passwordMessage {
                    Text(message).font(.footnote)
                }
            }
            .navigationTitle("Password")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                ToolbarItem(placement: .cancellationAction) { Button("Cancel") { dismiss() } }
                ToolbarItem(placement: .confirmationAction) {
                    Button("Change") {
                        saving = true
                        Task {
                            defer { saving = false }
                            if await profile.changePassword(current: current, new: new, confirmation: confirmation) {
                                try? await Task.sleep(for: .seconds(1.5))
                                dismiss()
                            }
                        }
                    }
                    .disabled(saving || current.isEmpty || new.isEmpty)
                }
            }
        }
    }
}
