package dev.rebound.plugintest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.api.ModelRef;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionRef;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replays event sequences recorded from the real session core (a real session and retry engine, the real
 * OpenAI-compatible provider against a loopback server; recorded and kept true by the app's
 * {@code PluginKitRecordingsTest}), as the published events a plugin receives. Each replay is put in this script's
 * chat, under the turn id the test gives, at this script's clock: times keep their recorded spacing (calls, backoff
 * with the engine's jitter) and the clock moves on to the replay's last event. Message ids are made unique per turn.
 *
 * <p>The recordings: a turn answered at once; 529 overloaded once or three times, then an answer
 * ({@code retry.maxRetries} 10); 529 overloaded until the chain is exhausted with {@code retry.maxRetries} 1 or 2; a
 * usage limit on key {@link #CREDENTIAL} that switches to key {@code personal}, which answers; 529 overloaded with a
 * fallback chain, whose model {@link #FALLBACK} answers. All start on model {@link #MODEL} with the credential
 * labelled {@link #CREDENTIAL}. Not thread-safe: one script per test.
 */
public final class SessionScript {

    /** The model of every recording. */
    public static final ModelRef MODEL = new ModelRef("anthropic", "claude-sonnet-4-5");
    /** The model the fallback recording falls back to. */
    public static final ModelRef FALLBACK = new ModelRef("openai", "gpt-5");
    /** The credential label of every recording. */
    public static final String CREDENTIAL = "work";
    /** The error text the core reports for a 529 {@code overloaded_error} reply. */
    public static final String OVERLOADED = "529 Overloaded: Overloaded (type: overloaded_error)";
    /** The answer text of the recordings that end with one. */
    public static final String ANSWER = "Wait longer after each failure.";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TIMES = Set.of("timestamp", "retryAt", "startedAt", "endedAt");
    private static final Set<String> MESSAGE_IDS = Set.of("id", "messageId");

    private final SessionRef session;
    private long now;

    /**
     * @param session the chat the replayed events belong to
     * @param startMillis epoch milliseconds of the first event
     */
    public SessionScript(SessionRef session, long startMillis) {
        this.session = session;
        this.now = startMillis;
    }

    /** The chat of this script's events. */
    public SessionRef session() {
        return session;
    }

    /** The script's clock: epoch milliseconds of the last event replayed. */
    public long now() {
        return now;
    }

    /** A turn answered by its first call: no retry, no chain. */
    public List<SessionEvent> answeredAtOnce(String turnId) {
        return replay("answered-at-once", turnId);
    }

    /**
     * A turn whose first call (and, for 3, the retries after it) fail with 529 overloaded, then a retry answers.
     *
     * @param turnId the turn's id
     * @param failures 1 or 3, the recorded counts
     */
    public List<SessionEvent> overloadedThenSucceeds(String turnId, int failures) {
        if (failures != 1 && failures != 3) {
            throw new IllegalArgumentException("recorded with 1 or 3 failures, not " + failures);
        }
        return replay("overloaded-" + failures + "-then-succeeds", turnId);
    }

    /**
     * A turn whose first call and every retry fail with 529 overloaded until the chain is exhausted.
     *
     * @param turnId the turn's id
     * @param maxRetries 1 or 2, the recorded {@code retry.maxRetries}
     */
    public List<SessionEvent> overloadedUntilExhausted(String turnId, int maxRetries) {
        if (maxRetries != 1 && maxRetries != 2) {
            throw new IllegalArgumentException("recorded with retry.maxRetries 1 or 2, not " + maxRetries);
        }
        return replay("overloaded-until-exhausted-" + maxRetries, turnId);
    }

    /** A turn whose first call hits a usage limit on key {@code work}: the session switches to key {@code personal}. */
    public List<SessionEvent> usageLimitSwitchesKey(String turnId) {
        return replay("usage-limit-switches-key", turnId);
    }

    /** A turn whose model is overloaded: the session falls back to {@link #FALLBACK}, which answers. */
    public List<SessionEvent> overloadedFallsBack(String turnId) {
        return replay("overloaded-falls-back", turnId);
    }

    /**
     * Interleaves several chats' sequences one event at a time, in turn, as two chats streaming at once reach a
     * plugin; each sequence keeps its own order.
     */
    @SafeVarargs
    public static List<SessionEvent> interleave(List<SessionEvent>... sequences) {
        List<SessionEvent> out = new ArrayList<>();
        List<Iterator<SessionEvent>> its = new ArrayList<>();
        for (List<SessionEvent> sequence : sequences) {
            its.add(sequence.iterator());
        }
        boolean any = true;
        while (any) {
            any = false;
            for (Iterator<SessionEvent> it : its) {
                if (it.hasNext()) {
                    out.add(it.next());
                    any = true;
                }
            }
        }
        return out;
    }

    private List<SessionEvent> replay(String recording, String turnId) {
        List<JsonNode> frames = read(recording);
        long recordedStart = frames.stream()
                .mapToLong(SessionScript::firstTime)
                .filter(t -> t > 0)
                .min()
                .orElse(now);
        long shift = now - recordedStart;
        List<SessionEvent> events = new ArrayList<>();
        for (JsonNode frame : frames) {
            rewrite(frame, turnId, shift);
            SessionEvent event = RpcFrames.event(frame, session);
            if (event != null) {
                events.add(event);
            }
            now = Math.max(now, lastTime(frame));
        }
        return events;
    }

    /** Puts a frame in the script's turn and time, and makes message ids unique to the turn; in place. */
    private static void rewrite(JsonNode node, String turnId, long shift) {
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                String name = field.getKey();
                JsonNode value = field.getValue();
                if (name.equals("turnId") && value.isTextual()) {
                    object.put(name, turnId);
                } else if (TIMES.contains(name) && value.isNumber()) {
                    object.put(name, value.asLong() + shift);
                } else if (MESSAGE_IDS.contains(name) && value.isTextual()) {
                    object.put(name, turnId + "/" + value.asText());
                } else {
                    rewrite(value, turnId, shift);
                }
            }
        } else if (node.isArray()) {
            node.forEach(child -> rewrite(child, turnId, shift));
        }
    }

    private static long firstTime(JsonNode frame) {
        return times(frame).stream().mapToLong(Long::longValue).min().orElse(0);
    }

    private static long lastTime(JsonNode frame) {
        return times(frame).stream().mapToLong(Long::longValue).max().orElse(0);
    }

    private static List<Long> times(JsonNode node) {
        List<Long> found = new ArrayList<>();
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                if (TIMES.contains(field.getKey()) && field.getValue().isNumber()) {
                    found.add(field.getValue().asLong());
                } else {
                    found.addAll(times(field.getValue()));
                }
            }
        } else if (node.isArray()) {
            node.forEach(child -> found.addAll(times(child)));
        }
        return found;
    }

    private static List<JsonNode> read(String recording) {
        String resource = "recordings/" + recording + ".jsonl";
        try (InputStream in = SessionScript.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing recording " + resource);
            }
            List<JsonNode> frames = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    frames.add(JSON.readTree(line));
                }
            }
            return frames;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read recording " + resource, e);
        }
    }
}
