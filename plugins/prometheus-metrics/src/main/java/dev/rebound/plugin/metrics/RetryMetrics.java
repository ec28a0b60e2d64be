package dev.rebound.plugin.metrics;

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

/**
 * The plugin's metrics, in a registry of its own. Fed from one thread (the plugin's delivery thread); scraped from
 * any.
 *
 * <p>Retries per turn: a turn ends with {@code agent_end{willRetry:false}}; the histogram is observed then, once per
 * turn, with the number of retries the turn's chain reported in {@code auto_retry_end} (retries made), or with the
 * highest {@code auto_retry_start} attempt seen when that event was dropped, or 0 for a turn with no retry.
 */
final class RetryMetrics {

    /** Upper bounds of the retries-per-turn buckets; {@code retry.maxRetries} is 10 by default. */
    static final double[] RETRIES_PER_TURN_BUCKETS = {0, 1, 2, 3, 5, 10};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter retries = Counter.builder().name("rebound_retries_total")
            .help("Retries scheduled, by why the failed call was retried").labelNames("error_kind")
            .register(registry);
    private final Counter chains = Counter.builder().name("rebound_retry_chains_total")
            .help("Retry chains ended, by outcome (succeeded, or why they gave up)").labelNames("outcome")
            .register(registry);
    private final Histogram retriesPerTurn = Histogram.builder().name("rebound_retries_per_turn")
            .help("Retries a turn needed, observed once per finished turn (0 when none)").classicOnly()
            .classicUpperBounds(RETRIES_PER_TURN_BUCKETS).register(registry);
    private final Counter fallbacksApplied = Counter.builder().name("rebound_fallbacks_applied_total")
            .help("Moves to a fallback model, by the model that failed and the one used").labelNames("from", "to")
            .register(registry);
    private final Counter fallbacksReverted = Counter.builder().name("rebound_fallbacks_reverted_total")
            .help("Returns from a fallback model to the primary").labelNames("from", "to").register(registry);
    private final Counter credentialSwitches = Counter.builder().name("rebound_credential_switches_total")
            .help("Moves to another API key of a provider after a usage limit").labelNames("provider")
            .register(registry);

    private int retriesInTurn;

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
                retriesInTurn = Math.max(retriesInTurn, e.attempt());
            }
            case AutoRetryEnd e -> {
                chains.labelValues(String.valueOf(e.reason())).inc();
                retriesInTurn = e.attempt();
            }
            case AgentEnd e when !e.willRetry() -> {
                retriesPerTurn.observe(retriesInTurn);
                retriesInTurn = 0;
            }
            case RetryFallbackApplied e -> fallbacksApplied.labelValues(e.from(), e.to()).inc();
            case RetryFallbackReverted e -> fallbacksReverted.labelValues(e.from(), e.to()).inc();
            case CredentialSwitched e -> credentialSwitches.labelValues(e.provider()).inc();
            default -> {
            }
        }
    }
}
