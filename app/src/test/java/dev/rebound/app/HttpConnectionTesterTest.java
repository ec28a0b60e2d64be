package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.auth.ApiKeySource;
import dev.rebound.auth.CredentialStore;
import dev.rebound.auth.Secret;
import dev.rebound.provider.HttpClients;
import dev.rebound.provider.WireFixture;
import dev.rebound.settings.ConfigDirectory;
import dev.rebound.settings.ConfigValue;
import dev.rebound.ui.settings.model.ConnectionTester;
import dev.rebound.ui.settings.model.ConnectionTester.Result;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Test connection against a real loopback server: the request it sends and the sentence it reports. */
class HttpConnectionTesterTest {
    @TempDir
    Path dir;

    private final MockWebServer server = new MockWebServer();
    private final OkHttpClient http = HttpClients.newSharedClient();
    private CredentialStore credentials;
    private HttpConnectionTester tester;

    @BeforeEach
    void start() throws Exception {
        server.start();
        credentials = CredentialStore.open(ConfigDirectory.at(dir), Map.of(), Clock.systemUTC());
        tester = new HttpConnectionTester(http, credentials);
    }

    @AfterEach
    void stop() {
        server.close();
        http.dispatcher().executorService().shutdown();
    }

    private String baseUrl() {
        return server.url("/v1").toString();
    }

    @Test
    void aModelsListAnsweredWithTheSavedKeyIsReportedAsConnected() throws Exception {
        credentials.put("local", "work", new ApiKeySource.Literal(new Secret("sk-saved-key-1234")));
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .body("{\"object\":\"list\",\"data\":[{\"id\":\"a\"},{\"id\":\"b\"}]}")
                .build());

        Result result = tester.test("local", "openai-completions", baseUrl(), null);

        assertThat(result.ok()).isTrue();
        assertThat(result.message())
                .isEqualTo("Connected to " + server.getHostName() + " with the key 'work'; it offers 2 models.");
        RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(request.getTarget()).isEqualTo("/v1/models");
        assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer sk-saved-key-1234");
    }

    @Test
    void aRefusedKeyIsReportedWithoutTheKeyOrTheBody() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(401)
                .body("{\"error\":\"bad key sk-typed-9999\"}")
                .build());

        Result result = tester.test("local", "openai-completions", baseUrl(), "sk-typed-9999");

        assertThat(result.ok()).isFalse();
        assertThat(result.message())
                .contains("refused the request with the key you typed (HTTP 401)")
                .doesNotContain("sk-typed");
    }

    @Test
    void anthropicGetsItsKeyHeaderAndVersionedPath() throws Exception {
        server.enqueue(
                new MockResponse.Builder().code(200).body("{\"data\":[]}").build());

        tester.test("claude", "anthropic-messages", server.url("/").toString(), "sk-ant-key");

        RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(request.getTarget()).isEqualTo("/v1/models?limit=1000");
        assertThat(request.getHeaders().get("x-api-key")).isEqualTo("sk-ant-key");
        assertThat(request.getHeaders().get("anthropic-version")).isNotBlank();
    }

    @Test
    void aPortWhereNothingListensSaysSo() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }

        Result result = tester.test("local", "openai-completions", "http://127.0.0.1:" + port + "/v1", null);

        assertThat(result.ok()).isFalse();
        assertThat(result.message()).startsWith("Could not connect to 127.0.0.1:" + port);
    }

    @Test
    void geminiGetsItsKeyHeaderAndVersionedPathAndTheKeyStaysOutOfTheUrl() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .body("{\"models\":[{\"name\":\"models/gemini-2.5-flash\"}]}")
                .build());

        Result result = tester.test(new ConnectionTester.Target(
                "gemini",
                "google-gemini",
                server.url("/").toString(),
                "AIzaTyped-0123456789",
                List.of("gemini-2.5-flash"),
                Map.of(),
                Map.of()));

        assertThat(result.ok()).isTrue();
        RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(request.getUrl().encodedPath()).isEqualTo("/v1beta/models");
        assertThat(request.getTarget()).doesNotContain("AIza");
        assertThat(request.getHeaders().get("x-goog-api-key")).isEqualTo("AIzaTyped-0123456789");
    }

    @Test
    void geminisRefusedKeyIsA400ThatIsReportedAsARefusedKey() {
        server.enqueue(new MockResponse.Builder()
                .code(400)
                .body(WireFixture.fixture("gemini/error-400-INVALID_ARGUMENT-api-key.json"))
                .build());

        Result result = tester.test("gemini", "google-gemini", server.url("/").toString(), "AIzaBad-0000000000");

        assertThat(result.ok()).isFalse();
        assertThat(result.message()).contains("refused the request with the key you typed (HTTP 400). Check the key.");
    }

    @Test
    void aConfiguredModelTheServerDoesNotOfferIsNamed() {
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .body("{\"object\":\"list\",\"data\":[{\"id\":\"gpt-4.1\"},{\"id\":\"gpt-4.1-mini\"}]}")
                .build());

        Result result = tester.test(new ConnectionTester.Target(
                "openai", "openai-responses", baseUrl(), "sk-x", List.of("gpt-4.1", "gpt-9"), Map.of(), Map.of()));

        assertThat(result.ok()).isFalse();
        assertThat(result.message())
                .isEqualTo("Connected to " + server.getHostName() + " with the key you typed; it offers 2 models, "
                        + "but not gpt-9. Check the model ids.");
    }

    @Test
    void extraHeadersAndQueryGoWithTheTestAndAnUnsetVariableIsSaid() throws Exception {
        HttpConnectionTester withEnv =
                new HttpConnectionTester(url -> http, credentials, Map.of("AZURE_KEY", "az-1234567"));
        server.enqueue(
                new MockResponse.Builder().code(200).body("{\"data\":[]}").build());

        withEnv.test(new ConnectionTester.Target(
                "azure",
                "openai-completions",
                baseUrl(),
                null,
                List.of(),
                Map.of("api-key", ConfigValue.fromEnv("AZURE_KEY")),
                Map.of("api-version", ConfigValue.of("2024-10-21"))));
        Result unset = tester.test(new ConnectionTester.Target(
                "azure",
                "openai-completions",
                baseUrl(),
                null,
                List.of(),
                Map.of("api-key", ConfigValue.fromEnv("AZURE_KEY")),
                Map.of()));

        server.enqueue(
                new MockResponse.Builder().code(200).body("{\"data\":[]}").build());
        withEnv.test(new ConnectionTester.Target(
                "azure",
                "openai-completions",
                baseUrl(),
                "az-typed-key-999",
                List.of(),
                Map.of("api-key", ConfigValue.fromCredential()),
                Map.of()));

        RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
        RecordedRequest keyed = server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(keyed.getHeaders().get("api-key")).isEqualTo("az-typed-key-999");
        assertThat(keyed.getHeaders().get("Authorization")).isNull();
        assertThat(request.getHeaders().get("api-key")).isEqualTo("az-1234567");
        assertThat(request.getUrl().queryParameter("api-version")).isEqualTo("2024-10-21");
        assertThat(unset.ok()).isFalse();
        assertThat(unset.message()).contains("environment variable AZURE_KEY, which is not set");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} ~ {1}: {2}")
    @org.junit.jupiter.params.provider.CsvSource({
        "claude-sonnet-4-5, claude-sonnet-4-5-20250929, true",
        "gpt-4o, gpt-4o-2024-08-06, true",
        "llama3.2, llama3.2:latest, true",
        "gemini-2.5-flash, models/gemini-2.5-flash, true",
        "gpt-4o, gpt-4o-mini, false",
        "claude-sonnet-4, claude-sonnet-4-5-20250929, false",
        "llama3.2, llama3.2:70b, false",
        "claude-3-7-sonnet-latest, claude-3-7-sonnet-20250219, true",
        "claude-sonnet-4-0, claude-sonnet-4-20250514, true",
    })
    void aConfiguredIdNamesTheListedSnapshotOrTagItStandsFor(String configured, String listed, boolean same) {
        assertThat(HttpConnectionTester.sameModel(configured, listed)).isEqualTo(same);
    }

    @Test
    void anAzureDeploymentUrlWithoutAModelListIsReachedNotABadUrl() {
        server.enqueue(new MockResponse.Builder()
                .code(404)
                .body("{\"error\":{\"code\":\"404\"}}")
                .build());

        Result result = tester.test(
                "azure",
                "openai-completions",
                server.url("/openai/deployments/gpt-4o").toString(),
                "az-key-1234567");

        assertThat(result.ok()).isTrue();
        assertThat(result.message()).contains("a deployment URL has no model list");
    }

    @Test
    void openRoutersOpenModelListDoesNotHideARefusedKey() throws Exception {
        OkHttpClient toLoopback = http.newBuilder()
                .dns(host -> List.of(java.net.InetAddress.getLoopbackAddress()))
                .build();
        HttpConnectionTester openRouter = new HttpConnectionTester(url -> toLoopback, credentials, Map.of());
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .body("{\"data\":[{\"id\":\"x\"}]}")
                .build());
        server.enqueue(new MockResponse.Builder()
                .code(401)
                .body("{\"error\":{\"message\":\"No auth\"}}")
                .build());
        String base = "http://openrouter.ai:" + server.getPort() + "/api/v1";

        Result result = openRouter.test("openrouter", "openai-completions", base, "sk-or-bad-0000000000");

        assertThat(result.ok()).isFalse();
        assertThat(result.message()).contains("refused the request with the key you typed");
        server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getUrl().encodedPath())
                .isEqualTo("/api/v1/key");
    }

    @Test
    void aKeyWithALineBreakIsRefusedBeforeAnythingIsSentAndNotShown() {
        Result result = tester.test("local", "openai-completions", baseUrl(), "sk-pasted-0123456789\r\n");

        assertThat(result.ok()).isFalse();
        assertThat(result.message()).contains("cannot go in an HTTP header").doesNotContain("sk-pasted");
        assertThat(server.getRequestCount()).isZero();
    }
}
