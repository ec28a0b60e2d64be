package dev.rebound.bundled.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import ch.qos.logback.classic.Level;
import dev.rebound.api.CredentialSwitched;
import dev.rebound.api.ModelRef;
import dev.rebound.api.RetryFallbackApplied;
import dev.rebound.api.RetryFallbackReverted;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionRef;
import dev.rebound.plugintest.LogCapture;
import dev.rebound.plugintest.SessionScript;
import dev.rebound.plugintest.TestPluginContext;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrometheusMetricsListenerTest {

    @TempDir
    Path dataDirectory;

    private final SessionScript script = new SessionScript(new SessionRef("chat-1", null), 1_764_579_600_000L);
    private final HttpClient http = HttpClient.newHttpClient();
    private PrometheusMetricsListener listener;

    @AfterEach
    void closeListener() {
        if (listener != null) {
            listener.close();
        }
        http.close();
    }

    @Test
    void aThreeOverloadChainShowsAsRetriesByKindAChainByOutcomeAndOneTurnOfThreeRetries() throws Exception {
        listener = start(Map.of("port", 0L));

        feed(script.overloadedThenSucceeds("turn-1", 3));

        String metrics = scrape();
        assertThat(metrics)
                .contains(
                        "rebound_retries_total{error_kind=\"transient\"} 3.0\n",
                        "rebound_retries_total{error_kind=\"rate_limit\"} 0.0\n",
                        "rebound_retry_chains_total{outcome=\"succeeded\"} 1.0\n",
                        "rebound_retry_chains_total{outcome=\"exhausted\"} 0.0\n",
                        "rebound_retries_per_turn_bucket{le=\"2.0\"} 0\n",
                        "rebound_retries_per_turn_bucket{le=\"3.0\"} 1\n",
                        "rebound_retries_per_turn_count 1\n",
                        "rebound_retries_per_turn_sum 3.0\n");
    }

    @Test
    void everyFinishedTurnIsObservedOnceIncludingTurnsThatNeededNoRetry() throws Exception {
        listener = start(Map.of("port", 0L));

        feed(script.answeredAtOnce("turn-1"));
        feed(script.overloadedThenSucceeds("turn-2", 3));
        feed(script.overloadedUntilExhausted("turn-3", 2));
        feed(script.answeredAtOnce("turn-4"));

        assertThat(scrape())
                .contains(
                        "rebound_retries_per_turn_bucket{le=\"0.0\"} 2\n",
                        "rebound_retries_per_turn_bucket{le=\"1.0\"} 2\n",
                        "rebound_retries_per_turn_bucket{le=\"2.0\"} 3\n",
                        "rebound_retries_per_turn_bucket{le=\"3.0\"} 4\n",
                        "rebound_retries_per_turn_bucket{le=\"+Inf\"} 4\n",
                        "rebound_retries_per_turn_count 4\n",
                        "rebound_retries_per_turn_sum 5.0\n",
                        "rebound_retries_total{error_kind=\"transient\"} 5.0\n",
                        "rebound_retry_chains_total{outcome=\"exhausted\"} 1.0\n");
    }

    @Test
    void twoChatsRetryingAtOnceWithTheSameTurnIdsAreEachCountedOncePerTurn() throws Exception {
        listener = start(Map.of("port", 0L));
        SessionScript other = new SessionScript(new SessionRef("chat-2", null), 1_764_579_600_000L);

        // Both chats name their turns "turn-1" and "turn-2": only the session tells them apart.
        feed(SessionScript.interleave(
                script.overloadedThenSucceeds("turn-1", 3), other.overloadedUntilExhausted("turn-1", 1)));
        feed(SessionScript.interleave(script.answeredAtOnce("turn-2"), other.overloadedThenSucceeds("turn-2", 1)));

        assertThat(scrape())
                .contains(
                        "rebound_retries_per_turn_count 4\n",
                        "rebound_retries_per_turn_sum 5.0\n",
                        "rebound_retries_per_turn_bucket{le=\"0.0\"} 1\n",
                        "rebound_retries_per_turn_bucket{le=\"1.0\"} 3\n",
                        "rebound_retries_per_turn_bucket{le=\"3.0\"} 4\n",
                        "rebound_retries_total{error_kind=\"transient\"} 5.0\n",
                        "rebound_retry_chains_total{outcome=\"succeeded\"} 2.0\n",
                        "rebound_retry_chains_total{outcome=\"exhausted\"} 1.0\n");
    }

    @Test
    void aRecordedKeySwitchAndARecordedFallbackAreCountedAsTheyHappened() throws Exception {
        listener = start(Map.of("port", 0L));

        feed(script.usageLimitSwitchesKey("turn-1"));
        feed(script.overloadedFallsBack("turn-2"));

        assertThat(scrape())
                .contains(
                        "rebound_credential_switches_total{provider=\"anthropic\"} 1.0\n",
                        "rebound_fallbacks_applied_total{from=\"anthropic/claude-sonnet-4-5\",to=\"openai/gpt-5\"} "
                                + "1.0\n",
                        "rebound_retries_total{error_kind=\"usage_limit\"} 1.0\n",
                        "rebound_retries_total{error_kind=\"transient\"} 1.0\n",
                        "rebound_retries_per_turn_count 2\n",
                        "rebound_retries_per_turn_sum 2.0\n");
    }

    @Test
    void fallbacksAndCredentialSwitchesAreCounted() throws Exception {
        listener = start(Map.of("port", 0L));

        SessionRef chat = script.session();
        ModelRef claude = new ModelRef("anthropic", "claude-sonnet-4-5");
        ModelRef gpt = new ModelRef("openai", "gpt-5");
        feed(List.of(
                new CredentialSwitched(chat, "turn-1", "anthropic", "work", "personal"),
                new RetryFallbackApplied(chat, "turn-1", claude, gpt, "default"),
                new RetryFallbackReverted(chat, null, gpt, claude),
                new RetryFallbackApplied(chat, "turn-2", claude, gpt, "default")));

        assertThat(scrape())
                .contains(
                        "rebound_credential_switches_total{provider=\"anthropic\"} 1.0\n",
                        "rebound_fallbacks_applied_total{from=\"anthropic/claude-sonnet-4-5\",to=\"openai/gpt-5\"} 2.0\n",
                        "rebound_fallbacks_reverted_total{from=\"openai/gpt-5\",to=\"anthropic/claude-sonnet-4-5\"} 1.0\n");
    }

    @Test
    void servesOnTheConfiguredPortOfLoopbackAndWritesTheAddress() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        listener = start(Map.of("port", (long) port));

        assertThat(listener.port()).contains(port);
        assertThat(Files.readString(dataDirectory.resolve("endpoint")))
                .isEqualTo("http://127.0.0.1:" + port + "/metrics\n");
        assertThat(scrape()).contains("# TYPE rebound_retries_per_turn histogram");
    }

    @Test
    void isNotReachableOnTheMachinesOtherAddresses() throws Exception {
        List<InetAddress> external = NetworkInterface.networkInterfaces()
                .filter(PrometheusMetricsListenerTest::isUp)
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
                .toList();
        assumeFalse(external.isEmpty(), "this machine has no address but loopback");
        listener = start(Map.of("port", 0L));
        int port = listener.port().orElseThrow();

        for (InetAddress address : external) {
            try (Socket socket = new Socket()) {
                assertThatThrownBy(() -> socket.connect(new InetSocketAddress(address, port), 2_000))
                        .as("connect to %s:%d", address, port)
                        .isInstanceOf(ConnectException.class);
            }
        }
    }

    @Test
    void aPortInUseIsOneClearLogLineAndTheListenerStillTakesEvents() throws Exception {
        try (ServerSocket occupied = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
                LogCapture log = LogCapture.of("dev.rebound.bundled.metrics")) {
            listener = start(Map.of("port", (long) occupied.getLocalPort()));

            assertThat(listener.port()).isEmpty();
            assertThat(log.messages(Level.ERROR))
                    .singleElement()
                    .asString()
                    .startsWith("Prometheus metrics are not served: 127.0.0.1:" + occupied.getLocalPort()
                            + " cannot be used")
                    .contains("plugins → prometheus-metrics → port");
            assertThat(dataDirectory.resolve("endpoint")).doesNotExist();
            feed(script.overloadedThenSucceeds("turn-1", 1));
        }
    }

    @Test
    void closeStopsServingAndRemovesTheAddress() throws Exception {
        listener = start(Map.of("port", 0L));
        URI address =
                URI.create(Files.readString(dataDirectory.resolve("endpoint")).strip());

        listener.close();
        listener = null;

        assertThat(dataDirectory.resolve("endpoint")).doesNotExist();
        assertThatThrownBy(
                        () -> http.send(HttpRequest.newBuilder(address).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(ConnectException.class);
    }

    @Test
    void aPortSettingThatIsNoPortIsLoggedAndTheDefaultUsed() {
        try (LogCapture log = LogCapture.of("dev.rebound.bundled.metrics")) {
            assertThat(MetricsSettings.from(Map.of("port", "abc")).port()).isEqualTo(9464);
            assertThat(MetricsSettings.from(Map.of("port", 70_000L)).port()).isEqualTo(9464);
            assertThat(MetricsSettings.from(Map.of("port", new BigDecimal("9100.5")))
                            .port())
                    .isEqualTo(9464);
            assertThat(log.messages(Level.WARN))
                    .hasSize(3)
                    .first()
                    .asString()
                    .contains("port is \"abc\", which is not a port number (0 to 65535, 0 for any free port); using"
                            + " 9464");
        }
        assertThat(MetricsSettings.from(Map.of()).port()).isEqualTo(9464);
        assertThat(MetricsSettings.from(Map.of("port", 9100L)).port()).isEqualTo(9100);
        assertThat(MetricsSettings.from(Map.of("port", new BigDecimal("9100.0")))
                        .port())
                .isEqualTo(9100);
    }

    private static boolean isUp(NetworkInterface networkInterface) {
        try {
            return networkInterface.isUp();
        } catch (SocketException e) {
            return false;
        }
    }

    private PrometheusMetricsListener start(Map<String, Object> settings) {
        return new PrometheusMetricsListener(TestPluginContext.of("prometheus-metrics", dataDirectory, settings));
    }

    private void feed(List<SessionEvent> events) {
        events.forEach(listener::dispatch);
    }

    private String scrape() throws IOException, InterruptedException {
        URI address =
                URI.create(Files.readString(dataDirectory.resolve("endpoint")).strip());
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(address).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
