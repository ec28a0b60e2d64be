package dev.rebound.bundled.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.api.SessionEventListener;
import dev.rebound.api.SessionRef;
import dev.rebound.plugintest.LoadedPlugin;
import dev.rebound.plugintest.SessionScript;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built archive, loaded by PF4J with its bundled Prometheus client, serves real chains' metrics over HTTP. */
class PrometheusMetricsArchiveIT {

    @TempDir
    Path work;

    @Test
    void theBuiltArchiveServesTheRetriesOfAnOverloadChainAndAFailedOne() throws Exception {
        SessionScript script = new SessionScript(new SessionRef("chat-1", null), 1_764_579_600_000L);
        String metrics;
        Path endpoint;

        try (LoadedPlugin plugin = LoadedPlugin.load(LoadedPlugin.builtArchive(), "0.2.0", work);
                HttpClient http = HttpClient.newHttpClient()) {
            assertThat(plugin.listenerClasses())
                    .extracting(Class::getName)
                    .containsExactly(PrometheusMetricsListener.class.getName());
            assertThat(plugin.classesNotFromArchive(
                            PrometheusMetricsListener.class.getName(),
                            HTTPServer.class.getName(),
                            Counter.class.getName()))
                    .isEmpty();

            SessionEventListener listener = plugin.newListener(Map.of("port", 0L));
            script.overloadedThenSucceeds("turn-1", 3).forEach(listener::dispatch);
            script.overloadedUntilExhausted("turn-2", 2).forEach(listener::dispatch);

            endpoint = plugin.dataDirectory().resolve("endpoint");
            URI address = URI.create(Files.readString(endpoint).strip());
            assertThat(address.getHost()).isEqualTo("127.0.0.1");
            metrics = http.send(HttpRequest.newBuilder(address).build(), HttpResponse.BodyHandlers.ofString())
                    .body();
        }

        assertThat(metrics)
                .contains(
                        "rebound_retries_total{error_kind=\"transient\"} 5.0\n",
                        "rebound_retry_chains_total{outcome=\"succeeded\"} 1.0\n",
                        "rebound_retry_chains_total{outcome=\"exhausted\"} 1.0\n",
                        "rebound_retries_per_turn_bucket{le=\"2.0\"} 1\n",
                        "rebound_retries_per_turn_bucket{le=\"3.0\"} 2\n",
                        "rebound_retries_per_turn_count 2\n");
        assertThat(endpoint).as("removed when the plugin is closed").doesNotExist();
    }
}
