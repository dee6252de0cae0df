import SwiftUI

/// A name and the button that makes the thing it names (a collection, an API key, a library):
/// the button waits for a name, and the field empties once the model has it.
struct NameField: View {
    let placeholder: String
    let action: String
    let submit: (String) async -> Void
    @State private var name = ""

    var body: some View {
        HStack {
            TextField(placeholder, text: $name)
            Button(action) {
                let typed = name
                Task {
                    await submit(typed)
                    name = ""
                }
            }
            .disabled(name.trimmingCharacters(in: .whitespaces).isEmpty)
        }
    }
}
