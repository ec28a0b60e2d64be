package dev.rebound.plugintest;

import dev.rebound.api.AgentEnd;
import dev.rebound.api.AgentStart;
import dev.rebound.api.AssistantMessage;
import dev.rebound.api.AutoRetryEnd;
import dev.rebound.api.AutoRetryStart;
import dev.rebound.api.ContentBlock;
import dev.rebound.api.ErrorKind;
import dev.rebound.api.FailureKind;
import dev.rebound.api.MessageEnd;
import dev.rebound.api.MessageStart;
import dev.rebound.api.MessageUpdate;
import dev.rebound.api.ProviderFailure;
import dev.rebound.api.RetryAttempt;
import dev.rebound.api.RetryChainEnd;
import dev.rebound.api.RetryEndReason;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.StopReason;
import dev.rebound.api.Usage;
import dev.rebound.api.UserMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the event sequences a real session emits, in the order of docs/rpc.md, on one model and credential, with
 * times that advance by a fixed call duration and the scheduled delays (backoff 500, 1000, 2000... ms, no jitter).
 * Not thread-safe: one script per test.
 */
public final class SessionScript {

    /** The error text of a 529 overloaded reply, as the provider layer reports it. */
    public static final String OVERLOADED = "529 Overloaded: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
            + "\"message\":\"Overloaded\"}}";
    /** How long each provider call takes in the script. */
    public static final long CALL_MS = 200;
    private static final long BASE_DELAY_MS = 500;

    private final String provider;
    private final String model;
    private final String credential;
    private long now;
    private int messageCount;

    /**
     * @param provider the provider key
     * @param model the model id
     * @param credential the credential label, or null
     * @param startMillis epoch milliseconds of the first event
     */
    public SessionScript(String provider, String model, String credential, long startMillis) {
        this.provider = provider;
        this.model = model;
        this.credential = credential;
        this.now = startMillis;
    }

    /** The {@code provider/model} selector the script's events name. */
    public String selector() {
        return provider + "/" + model;
    }

    /** The script's clock: epoch milliseconds of the last event written. */
    public long now() {
        return now;
    }

    /** A turn answered by its first call: no retry, no chain. */
    public List<SessionEvent> answeredAtOnce(String turnId) {
        List<SessionEvent> events = new ArrayList<>();
        startTurn(events, turnId);
        answer(events);
        events.add(new AgentEnd(turnId, false));
        return events;
    }

    /**
     * A turn whose first call and the retries after it fail with 529 overloaded {@code failures} times in all, then
     * a retry succeeds: {@code failures} retries, chain {@code succeeded}.
     */
    public List<SessionEvent> overloadedThenSucceeds(String turnId, int failures, int maxRetries) {
        List<SessionEvent> events = new ArrayList<>();
        long startedAt = startTurn(events, turnId);
        List<RetryAttempt> attempts = failAndRetry(events, turnId, failures, maxRetries);
        answer(events);
        events.add(new AutoRetryEnd(true, failures, null, RetryEndReason.SUCCEEDED));
        events.add(new RetryChainEnd(turnId, attempts, RetryEndReason.SUCCEEDED, null, startedAt + CALL_MS, now));
        events.add(new AgentEnd(turnId, false));
        return events;
    }

    /**
     * A turn whose first call and all {@code maxRetries} retries fail with 529 overloaded: chain {@code exhausted},
     * the last failure recorded with no delay.
     */
    public List<SessionEvent> overloadedUntilExhausted(String turnId, int maxRetries) {
        List<SessionEvent> events = new ArrayList<>();
        long startedAt = startTurn(events, turnId);
        List<RetryAttempt> attempts = failAndRetry(events, turnId, maxRetries, maxRetries);
        fail(events);
        attempts.add(new RetryAttempt(maxRetries, ErrorKind.TRANSIENT, 529, selector(), credential, null,
                OVERLOADED));
        events.add(new AutoRetryEnd(false, maxRetries, OVERLOADED, RetryEndReason.EXHAUSTED));
        events.add(new RetryChainEnd(turnId, attempts, RetryEndReason.EXHAUSTED, OVERLOADED, startedAt + CALL_MS,
                now));
        events.add(new AgentEnd(turnId, false));
        return events;
    }

    private long startTurn(List<SessionEvent> events, String turnId) {
        long startedAt = now;
        events.add(new AgentStart(turnId));
        UserMessage prompt = new UserMessage(nextId(), "Explain exponential backoff", now);
        events.add(new MessageStart(prompt));
        events.add(new MessageEnd(prompt));
        return startedAt;
    }

    /** {@code retries} calls that fail with 529, each followed by a scheduled retry; returns their records. */
    private List<RetryAttempt> failAndRetry(List<SessionEvent> events, String turnId, int retries, int maxRetries) {
        List<RetryAttempt> attempts = new ArrayList<>();
        for (int retry = 1; retry <= retries; retry++) {
            fail(events);
            long delay = BASE_DELAY_MS << (retry - 1);
            events.add(new AgentEnd(turnId, true));
            events.add(new AutoRetryStart(retry, maxRetries, delay, OVERLOADED, ErrorKind.TRANSIENT, selector(),
                    credential, now + delay));
            attempts.add(new RetryAttempt(retry - 1, ErrorKind.TRANSIENT, 529, selector(), credential, delay,
                    OVERLOADED));
            now += delay;
            events.add(new AgentStart(turnId));
        }
        return attempts;
    }

    private void fail(List<SessionEvent> events) {
        String id = nextId();
        events.add(new MessageStart(assistant(id, List.of(), StopReason.STOP, null, null)));
        now += CALL_MS;
        ProviderFailure failure = new ProviderFailure(FailureKind.HTTP, 529, "overloaded_error", null, Map.of());
        events.add(new MessageEnd(assistant(id, List.of(), StopReason.ERROR, OVERLOADED, failure)));
    }

    private void answer(List<SessionEvent> events) {
        String id = nextId();
        String text = "Wait longer after each failure.";
        events.add(new MessageStart(assistant(id, List.of(), StopReason.STOP, null, null)));
        events.add(new MessageUpdate(id, MessageUpdate.TEXT, text));
        now += CALL_MS;
        events.add(new MessageEnd(assistant(id, List.of(new ContentBlock.Text(text)), StopReason.STOP, null, null)));
    }

    private AssistantMessage assistant(String id, List<ContentBlock> content, StopReason stop, String error,
                                       ProviderFailure failure) {
        return new AssistantMessage(id, content, provider, model, "openai-completions", credential,
                new Usage(12, content.isEmpty() ? 0 : 7, 0, 0), stop, error, null, failure, now);
    }

    private String nextId() {
        return "msg-" + ++messageCount;
    }
}
