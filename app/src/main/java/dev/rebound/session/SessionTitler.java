package dev.rebound.session;

import dev.rebound.event.AgentEnd;
import dev.rebound.event.SessionEvent;
import dev.rebound.history.SessionTitles;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.UserMessage;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Titles a chat after its first good exchange: at once from the first words of the prompt, then — when a model is set
 * for the {@code title} role ({@code modelRoles.title}) — with a short title that model writes, in the background,
 * retried like any request and falling back along the {@code title} role's chain. A title model that still fails
 * leaves the first-words title; nothing of it reaches the chat.
 */
public final class SessionTitler implements SessionListener {
    private static final Logger LOG = LoggerFactory.getLogger(SessionTitler.class);
    /** The role whose model writes titles, and whose fallback chain ({@code retry.fallbackChains.title}) it uses. */
    public static final String ROLE = "title";
    /** The longest title kept from a model. */
    static final int MAX_TITLE = 60;

    private final ChatSession session;
    private final Supplier<Settings> settings;
    private final RoleCalls roleCalls;
    private final Executor background;
    private final AtomicBoolean done = new AtomicBoolean();

    /**
     * @param roleCalls makes the title request, with retries and the {@code title} role's fallback chain
     * @param background where that request runs, off the session's thread
     */
    public SessionTitler(ChatSession session, Supplier<Settings> settings, RoleCalls roleCalls, Executor background) {
        this.session = session;
        this.settings = settings;
        this.roleCalls = roleCalls;
        this.background = background;
        if (session.title() != null) {
            done.set(true);
        }
    }

    @Override
    public void onEvent(SessionEvent event) {
        if (!(event instanceof AgentEnd end) || end.willRetry() || done.get()) {
            return;
        }
        List<ChatMessage> messages = session.messages();
        Optional<UserMessage> prompt = messages.stream()
                .filter(m -> m instanceof UserMessage)
                .map(m -> (UserMessage) m)
                .findFirst();
        boolean answered = messages.stream()
                .anyMatch(m -> m instanceof AssistantMessage a
                        && a.stopReason() == StopReason.STOP
                        && !a.text().isBlank());
        if (prompt.isEmpty() || !answered || !done.compareAndSet(false, true) || session.title() != null) {
            return;
        }
        String text = prompt.get().text();
        String firstWords = SessionTitles.fromPrompt(text);
        session.setTitle(firstWords);
        ModelRef titleModel = settings.get().modelRoles().get(ROLE);
        if (titleModel != null) {
            // Only replaces the automatic title: a rename made meanwhile wins.
            background.execute(() -> fromModel(titleModel, text)
                    .filter(t -> firstWords.equals(session.title()))
                    .ifPresent(session::setTitle));
        }
    }

    private Optional<String> fromModel(ModelRef model, String prompt) {
        String ask = "Write a title of at most six words for a chat that begins with the message below. Answer with "
                + "the title only, without quotes.\n\n" + prompt.substring(0, Math.min(prompt.length(), 2000));
        Optional<AssistantMessage> reply = roleCalls.call(ROLE, model, ask);
        if (reply.isEmpty() || reply.get().stopReason() != StopReason.STOP) {
            LOG.info(
                    "The title model {} did not answer ({}); keeping the first-words title",
                    model,
                    reply.map(AssistantMessage::errorMessage).orElse("not asked"));
            return Optional.empty();
        }
        return clean(reply.get().text());
    }

    /** The first line of a model's answer, without quotes or a trailing period, at most {@value #MAX_TITLE} chars. */
    static Optional<String> clean(String answer) {
        String line = answer.strip().lines().findFirst().orElse("").strip();
        line = line.replaceAll("^[\"'“”«»*#\\s]+|[\"'“”«»*\\s]+$", "")
                .replaceAll("[.。]$", "")
                .strip();
        if (line.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                line.length() <= MAX_TITLE
                        ? line
                        : line.substring(0, MAX_TITLE - 1).strip() + "…");
    }
}
