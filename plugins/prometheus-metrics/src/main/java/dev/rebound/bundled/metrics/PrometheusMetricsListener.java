package dev.rebound.bundled.metrics;

import dev.rebound.api.PluginContext;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionEventListener;
import java.util.Optional;
import org.pf4j.Extension;

/**
 * Counts retries, chains, fallbacks and credential switches, and serves them for Prometheus at
 * {@code http://127.0.0.1:PORT/metrics}, the address also written to {@code endpoint} in the data directory. The
 * server runs from construction until {@link #close()}.
 */
@Extension
public final class PrometheusMetricsListener implements SessionEventListener, AutoCloseable {

    /** The file in the data directory holding the address of {@code /metrics} while it is served. */
    public static final String ENDPOINT_FILE = "endpoint";

    private final RetryMetrics metrics = new RetryMetrics();
    private final MetricsEndpoint endpoint;

    /**
     * Starts serving {@code /metrics} on the port of the plugin's settings and writes its address to
     * {@link #ENDPOINT_FILE}; a port that cannot be bound is logged, and the metrics are then only counted.
     *
     * @param context the plugin's context, given by the host
     */
    public PrometheusMetricsListener(PluginContext context) {
        MetricsSettings settings = MetricsSettings.from(context.pluginSettings());
        endpoint = MetricsEndpoint.start(
                metrics.registry(), settings.port(), context.dataDirectory().resolve(ENDPOINT_FILE));
    }

    /** The port {@code /metrics} is served on; empty when it could not be bound. */
    public Optional<Integer> port() {
        return endpoint.port();
    }

    @Override
    public void onEvent(SessionEvent event) {
        metrics.record(event);
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
