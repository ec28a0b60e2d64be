package dev.rebound.history;

/**
 * The chat's own system prompt from here on: the instructions sent with its conversation in place of the settings'
 * default ({@code systemPrompt}). The latest entry wins; a null prompt goes back to the default. Not part of a turn: a
 * rewind does not take it out.
 *
 * @param prompt the instructions, or null for the settings' default
 */
public record SystemPromptEntry(String id, long ts, String prompt) implements JournalEntry {
    /** The {@code type} of this entry in the file. */
    public static final String TYPE = "system_prompt";

    public SystemPromptEntry {
        EntryIds.require(id);
        prompt = prompt == null || prompt.isBlank() ? null : prompt;
    }

    /** The chat's own system prompt by the latest entry among these, or null when it uses the default. */
    public static String latest(java.util.List<JournalEntry> entries) {
        String prompt = null;
        for (JournalEntry entry : entries) {
            if (entry instanceof SystemPromptEntry s) {
                prompt = s.prompt();
            }
        }
        return prompt;
    }

    @Override
    public String type() {
        return TYPE;
    }
}
