package dev.rebound.bundled.metrics;

import dev.rebound.api.AgentEnd;
import dev.rebound.api.AutoRetryEnd;
import dev.rebound.api.AutoRetryStart;
import dev.rebound.api.CredentialSwitched;
import dev.rebound.api.ErrorKind;
import dev.rebound.api.RetryEndReason;
import dev.rebound.api.RetryFallbackApplied;
import dev.rebound.api.RetryFallbackReverted;
import dev.rebound.api.SessionEvent;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The plugin's metrics, in a registry of its own. Fed from one thread (the plugin's delivery thread); scraped from
 * any.
 *
 * <p>Retries per turn: a turn ends with {@code agent_end{willRetry:false}}; the histogram is observed then, once per
 * turn, with the number of retries the turn's chain reported in {@code auto_retry_end} (retries made), or 0 for a
 * turn with no retry. Turns are told apart by session and turn id, so chats retrying at the same time are each
 * counted for themselves. A turn whose end never arrives (the app was closed) is forgotten once
 * {@link #OPEN_TURNS_KEPT} other turns are open.
 */
final class RetryMetrics {

    /** Upper bounds of the retries-per-turn buckets; {@code retry.maxRetries} is 10 by default. */
    static final double[] RETRIES_PER_TURN_BUCKETS = {0, 1, 2, 3, 5, 10};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter retries = Counter.builder()
            .name("rebound_retries_total")
            .help("Retries scheduled, by why the failed call was retried")
            .labelNames("error_kind")
            .register(registry);
    private final Counter chains = Counter.builder()
            .name("rebound_retry_chains_total")
            .help("Retry chains ended, by outcome (succeeded, or why they gave up)")
            .labelNames("outcome")
            .register(registry);
    private final Histogram retriesPerTurn = Histogram.builder()
            .name("rebound_retries_per_turn")
            .help("Retries a turn needed, observed once per finished turn (0 when none)")
            .classicOnly()
            .classicUpperBounds(RETRIES_PER_TURN_BUCKETS)
            .register(registry);
    private final Counter fallbacksApplied = Counter.builder()
            .name("rebound_fallbacks_applied_total")
            .help("Moves to a fallback model, by the model that failed and the one used")
            .labelNames("from", "to")
            .register(registry);
    private final Counter fallbacksReverted = Counter.builder()
            .name("rebound_fallbacks_reverted_total")
            .help("Returns from a fallback model to the primary")
            .labelNames("from", "to")
            .register(registry);
    private final Counter credentialSwitches = Counter.builder()
            .name("rebound_credential_switches_total")
            .help("Moves to another API key of a provider after a usage limit")
            .labelNames("provider")
            .register(registry);

    /** How many unfinished turns are remembered at most; the oldest is forgotten beyond that. */
    static final int OPEN_TURNS_KEPT = 256;

    /** Retries so far of each unfinished turn that had one, by session and turn, oldest first. */
    private final Map<TurnKey, Integer> retriesInTurn = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<TurnKey, Integer> eldest) {
            return size() > OPEN_TURNS_KEPT;
        }
    };

    /** A turn of a chat. */
    private record TurnKey(String sessionId, String turnId) {
        static TurnKey of(SessionEvent event) {
            return new TurnKey(event.session().id(), event.turnId());
        }
    }

    RetryMetrics() {
        for (ErrorKind kind : ErrorKind.values()) {
            retries.initLabelValues(kind.toString());
        }
        for (RetryEndReason reason : RetryEndReason.values()) {
            chains.initLabelValues(reason.toString());
        }
    }

    PrometheusRegistry registry() {
        return registry;
    }

    /** Counts what the event tells; events that tell nothing here are ignored. */
    void record(SessionEvent event) {
        switch (event) {
            case AutoRetryStart e -> {
                retries.labelValues(String.valueOf(e.errorKind())).inc();
                retriesInTurn.merge(TurnKey.of(e), e.attempt(), Math::max);
            }
            case AutoRetryEnd e -> {
                chains.labelValues(String.valueOf(e.reason())).inc();
                retriesInTurn.put(TurnKey.of(e), e.attempt());
            }
            case AgentEnd e
            when !e.willRetry() -> {
                Integer retried = retriesInTurn.remove(TurnKey.of(e));
                retriesPerTurn.observe(retried == null ? 0 : retried);
            }
            case RetryFallbackApplied e ->
                fallbacksApplied
                        .labelValues(String.valueOf(e.from()), String.valueOf(e.to()))
                        .inc();
            case RetryFallbackReverted e ->
                fallbacksReverted
                        .labelValues(String.valueOf(e.from()), String.valueOf(e.to()))
                        .inc();
            case CredentialSwitched e ->
                credentialSwitches.labelValues(e.provider()).inc();
            default -> {}
        }
    }
}
