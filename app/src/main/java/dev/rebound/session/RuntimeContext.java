package dev.rebound.session;

import dev.rebound.provider.ServerConversation;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.StopReason;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages of a session that are sent to the model, oldest first, and what a provider's server keeps of them
 * ({@link #server()}). A retried failure is removed from here (and stays in the {@link History}). Thread-safe.
 */
public final class RuntimeContext {
    private final List<ChatMessage> messages = new ArrayList<>();
    private final ServerConversation server = new ServerConversation();
    /** The chat's own system prompt, or null to use the settings' default. */
    private String systemPrompt;

    /** The chat's own system prompt, or null when it uses the settings' default. */
    public synchronized String systemPrompt() {
        return systemPrompt;
    }

    /** Sets the chat's own system prompt; null (or blank) goes back to the settings' default. */
    public synchronized void systemPrompt(String text) {
        this.systemPrompt = text == null || text.isBlank() ? null : text;
    }

    public synchronized void add(ChatMessage message) {
        messages.add(message);
    }

    /** Removes the message of that id; true when it was there. */
    public synchronized boolean remove(String messageId) {
        return messages.removeIf(m -> m.id().equals(messageId));
    }

    /**
     * Puts these messages in place of all there are, and forgets what servers keep of the conversation (it no longer
     * matches): after a rewind the next call sends the whole conversation.
     */
    public synchronized void replaceWith(List<ChatMessage> kept) {
        messages.clear();
        messages.addAll(kept);
        server.clear();
    }

    public synchronized void clear() {
        messages.clear();
        server.clear();
    }

    /**
     * What providers' servers keep of this conversation (the Responses API's stored replies), so that a turn can send
     * only what is new; reset after a stale replay.
     */
    public ServerConversation server() {
        return server;
    }

    /** A snapshot of every message in the context. */
    public synchronized List<ChatMessage> messages() {
        return List.copyOf(messages);
    }

    /**
     * The messages a provider is sent: every user message and every assistant message that completed. A failed or
     * aborted reply that was not retried stays visible to the user but is not replayed to the model, because a partial
     * or error answer would mislead it.
     */
    public synchronized List<ChatMessage> forProvider() {
        return messages.stream()
                .filter(m -> !(m instanceof AssistantMessage a)
                        || (a.stopReason() != StopReason.ERROR && a.stopReason() != StopReason.ABORTED))
                .toList();
    }

    /** The text of the last assistant message, or null when there is none. */
    public synchronized String lastAssistantText() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof AssistantMessage a) {
                return a.text();
            }
        }
        return null;
    }

    public synchronized int size() {
        return messages.size();
    }
}
