package dev.rebound.ui.settings.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.settings.Settings;

/**
 * The Chat tab: the default system prompt ({@code systemPrompt}), sent with every chat that has none of its own.
 * Written only when changed; emptied, it is removed from settings.json (no default).
 */
public final class ChatTabModel {
    private final FieldModel systemPrompt;

    ChatTabModel(Settings initial) {
        systemPrompt = new FieldModel("systemPrompt", initial.systemPrompt());
    }

    /** The default system prompt as typed. */
    public FieldModel systemPrompt() {
        return systemPrompt;
    }

    void patchInto(ObjectNode patch) {
        if (systemPrompt.changed()) {
            String text = systemPrompt.text();
            if (text.isBlank()) {
                patch.putNull("systemPrompt");
            } else {
                patch.put("systemPrompt", text);
            }
        }
    }

    void show(Problems problems) {
        systemPrompt.setError(problems.errorAt(systemPrompt.keyPath()).orElse(""));
    }

    boolean valid() {
        return systemPrompt.errorProperty().get().isEmpty();
    }
}
