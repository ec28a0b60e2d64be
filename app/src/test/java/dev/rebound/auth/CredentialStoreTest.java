package dev.rebound.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.files.FileProblem;
import dev.rebound.json.Json;
import dev.rebound.settings.ConfigDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class CredentialStoreTest {
    private static final ObjectMapper MAPPER = Json.newMapper();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T10:15:00Z"), ZoneOffset.UTC);
    private static final String CANARY = "sk-canary-7d41e0c9b2a85f36";

    @TempDir
    Path tmp;

    private ConfigDirectory dir;
    private Path file;

    @BeforeEach
    void setUp() {
        dir = ConfigDirectory.at(tmp);
        file = dir.credentialsFile();
    }

    private void write(String content) throws Exception {
        Files.writeString(file, content, StandardCharsets.UTF_8);
        if (posix()) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
    }

    private boolean posix() throws Exception {
        return Files.getFileStore(tmp).supportsFileAttributeView("posix");
    }

    private CredentialStore open(Map<String, String> env) {
        return CredentialStore.open(dir, env, CLOCK);
    }

    private static List<String> described(CredentialStore store) {
        return store.problems().stream().map(FileProblem::describe).toList();
    }

    private List<String> filesInDir() throws Exception {
        try (Stream<Path> files = Files.list(tmp)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aMissingFileMeansNoCredentialsAndNoProblems() throws Exception {
        CredentialStore store = open(Map.of());

        assertThat(store.forProvider("openai")).isEmpty();
        assertThat(store.labels("openai")).isEmpty();
        assertThat(store.problems()).isEmpty();
        assertThat(filesInDir()).isEmpty();
    }

    @Test
    void resolvesKeysFromTheFileAndFromTheEnvironmentInFileOrder() throws Exception {
        write("""
                { "openai": [ { "label": "work", "apiKey": "sk-work-1234567890" },
                              { "label": "personal", "apiKeyEnv": "OPENAI_API_KEY" } ],
                  "anthropic": [ { "label": "main", "apiKey": "sk-ant-0987654321" } ] }""");

        CredentialStore store = open(Map.of("OPENAI_API_KEY", "sk-from-env-5555"));

        assertThat(store.problems()).isEmpty();
        assertThat(store.forProvider("openai")).extracting(Credential::label).containsExactly("work", "personal");
        assertThat(store.forProvider("openai"))
                .extracting(c -> c.secret().reveal())
                .containsExactly("sk-work-1234567890", "sk-from-env-5555");
        assertThat(store.forProvider("openai")).allMatch(c -> c.provider().equals("openai"));
        assertThat(store.forProvider("anthropic"))
                .singleElement()
                .satisfies(c -> assertThat(c.label()).isEqualTo("main"));
        assertThat(store.labels("openai")).containsExactly("work", "personal");
        assertThat(store.forProvider("groq")).isEmpty();
    }

    @Test
    void anUnsetOrEmptyEnvironmentVariableSkipsTheCredentialWithAWarningNamingLabelAndVariable() throws Exception {
        write("""
                { "openai": [ { "label": "personal", "apiKeyEnv": "OPENAI_API_KEY" },
                              { "label": "ci", "apiKeyEnv": "CI_KEY" },
                              { "label": "work", "apiKey": "sk-work-1234567890" } ] }""");

        CredentialStore store = open(Map.of("CI_KEY", ""));

        assertThat(store.forProvider("openai")).extracting(Credential::label).containsExactly("work");
        assertThat(store.labels("openai")).containsExactly("personal", "ci", "work");
        assertThat(store.problems()).allMatch(p -> p.severity() == FileProblem.Severity.WARNING);
        assertThat(described(store))
                .containsExactly(
                        "credentials.json: openai[0].apiKeyEnv: environment variable OPENAI_API_KEY is not set or empty, "
                                + "so credential 'personal' is skipped",
                        "credentials.json: openai[1].apiKeyEnv: environment variable CI_KEY is not set or empty, "
                                + "so credential 'ci' is skipped");
    }

    @Test
    void malformedEntriesAreSkippedAndReportedWithKeyPaths() throws Exception {
        write("""
                { "openai": [ { "label": "work", "apiKey": "sk-work-1234567890" },
                              { "label": "work", "apiKey": "sk-other-1234567890" },
                              { "apiKey": "sk-nolabel-1234567890" },
                              { "label": "both", "apiKey": "sk-both-1234567890", "apiKeyEnv": "X" },
                              { "label": "neither" },
                              { "label": "number", "apiKey": 12345 },
                              "just a string" ],
                  "anthropic": { "label": "main", "apiKey": "sk-ant-1234567890" } }""");

        CredentialStore store = open(Map.of("X", "sk-env-1234567890"));

        assertThat(store.forProvider("openai")).extracting(Credential::label).containsExactly("work");
        assertThat(store.forProvider("anthropic")).isEmpty();
        assertThat(store.problems()).allMatch(FileProblem::isError);
        assertThat(described(store))
                .containsExactly(
                        "credentials.json: openai[1].label: duplicate label 'work'; labels must be unique per provider, so "
                                + "this entry is ignored",
                        "credentials.json: openai[2].label: is required: a non-empty name for this key, unique for the provider",
                        "credentials.json: openai[3]: has both apiKey and apiKeyEnv; keep one",
                        "credentials.json: openai[4]: needs apiKey (the key) or apiKeyEnv (the environment variable holding it)",
                        "credentials.json: openai[5].apiKey: must be a non-empty string",
                        "credentials.json: openai[6]: must be an object with a label and apiKey or apiKeyEnv",
                        "credentials.json: anthropic: must be an array of credentials ([{\"label\": ..., \"apiKey\": ...}])");
        assertThat(String.join("\n", described(store))).doesNotContain("sk-");
    }

    @Test
    void corruptJsonLeavesTheStoreEmptyTheFileUntouchedAndNamesLineAndColumnWithoutQuotingIt() throws Exception {
        String broken = "{ \"openai\": [\n  { \"label\": \"work\", \"apiKey\": " + CANARY + " } ] }";
        write(broken);

        CredentialStore store = open(Map.of());

        assertThat(store.forProvider("openai")).isEmpty();
        assertThat(store.labels("openai")).isEmpty();
        assertThat(store.problems()).singleElement().satisfies(p -> {
            assertThat(p.isError()).isTrue();
            assertThat(p.describe())
                    .startsWith(file + " is not valid JSON at line 2, column 32.")
                    .doesNotContain("canary")
                    .doesNotContain("sk-");
        });
        assertThat(file).hasBinaryContent(broken.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void putCreatesTheFileOwnerOnlyAtomically() throws Exception {
        CredentialStore store = open(Map.of());

        store.put("openai", "work", new ApiKeySource.Literal(new Secret("sk-work-1234567890")));

        if (posix()) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
        }
        assertThat(filesInDir()).containsExactly("credentials.json");
        assertThat(MAPPER.readTree(file.toFile()))
                .isEqualTo(MAPPER.readTree(
                        "{ \"openai\": [ { \"label\": \"work\", \"apiKey\": \"sk-work-1234567890\" } ] }"));
        assertThat(store.forProvider("openai"))
                .singleElement()
                .satisfies(c -> assertThat(c.secret().reveal()).isEqualTo("sk-work-1234567890"));
    }

    @Test
    void putReplacesTheKeyOfAnExistingLabelInPlaceKeepingOtherMembers() throws Exception {
        write("""
                { "openai": [ { "label": "work", "apiKey": "sk-old-1234567890", "note": "team account" },
                              { "label": "personal", "apiKey": "sk-personal-1234567890" } ],
                  "future": { "whatever": true } }""");
        CredentialStore store = open(Map.of("MY_KEY", "sk-env-1234567890"));

        store.put("openai", "work", new ApiKeySource.Environment("MY_KEY"));
        store.put("anthropic", "main", new ApiKeySource.Literal(new Secret("sk-ant-1234567890")));

        JsonNode saved = MAPPER.readTree(file.toFile());
        assertThat(saved.get("openai")).isEqualTo(MAPPER.readTree("""
                [ { "label": "work", "note": "team account", "apiKeyEnv": "MY_KEY" },
                  { "label": "personal", "apiKey": "sk-personal-1234567890" } ]"""));
        assertThat(saved.get("future")).isEqualTo(MAPPER.readTree("{ \"whatever\": true }"));
        assertThat(store.forProvider("openai"))
                .extracting(c -> c.secret().reveal())
                .containsExactly("sk-env-1234567890", "sk-personal-1234567890");
        assertThat(store.labels("anthropic")).containsExactly("main");
    }

    @Test
    void removeDeletesTheLabelAndSaves() throws Exception {
        write("{ \"openai\": [ { \"label\": \"work\", \"apiKey\": \"sk-work-1234567890\" } ] }");
        CredentialStore store = open(Map.of());

        assertThat(store.remove("openai", "personal")).isFalse();
        assertThat(store.remove("openai", "work")).isTrue();

        assertThat(store.forProvider("openai")).isEmpty();
        assertThat(MAPPER.readTree(file.toFile())).isEqualTo(MAPPER.createObjectNode());
    }

    @Test
    void savingOverACorruptFileFirstKeepsAnOwnerOnlyBackupOfIt() throws Exception {
        String broken = "{ \"openai\": [ { \"label\": \"work\", \"apiKey\": \"sk-lost-1234567890\" ";
        write(broken);
        CredentialStore store = open(Map.of());

        store.put("openai", "new", new ApiKeySource.Literal(new Secret("sk-new-1234567890")));

        Path backup = tmp.resolve("credentials.json.bak-20261201T101500Z");
        assertThat(backup).hasBinaryContent(broken.getBytes(StandardCharsets.UTF_8));
        if (posix()) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(backup)))
                    .isEqualTo("rw-------");
        }
        assertThat(store.labels("openai")).containsExactly("new");
        assertThat(store.problems()).isEmpty();
    }

    @Test
    void aFileReadableByOthersIsTightenedToOwnerOnlyWithAWarning() throws Exception {
        assumeTrue(posix());
        write("{ \"openai\": [ { \"label\": \"work\", \"apiKey\": \"sk-work-1234567890\" } ] }");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        CredentialStore store = open(Map.of());

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(store.problems()).singleElement().satisfies(p -> {
            assertThat(p.severity()).isEqualTo(FileProblem.Severity.WARNING);
            assertThat(p.message()).contains("rw-r--r--", "rw-------");
        });
        assertThat(store.forProvider("openai")).hasSize(1);
    }

    @Test
    void putOnAProviderWhoseEntryIsNotAnArrayIsRefusedWithoutSaving() throws Exception {
        write("{ \"openai\": { \"label\": \"work\", \"apiKey\": \"sk-work-1234567890\" } }");
        byte[] before = Files.readAllBytes(file);
        CredentialStore store = open(Map.of());

        assertThatThrownBy(() -> store.put("openai", "x", new ApiKeySource.Literal(new Secret(CANARY))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("openai")
                .hasMessageNotContaining(CANARY);
        assertThat(file).hasBinaryContent(before);
    }

    @Test
    void aKeyPastedIntoApiKeyEnvIsRefusedWithoutBeingShownAsAVariableName() throws Exception {
        write("{ \"openai\": [ { \"label\": \"work\", \"apiKeyEnv\": \"" + CANARY + "\" } ] }");

        CredentialStore store = open(Map.of());

        assertThat(described(store))
                .containsExactly("credentials.json: openai[0].apiKeyEnv: must be the name of an "
                        + "environment variable (letters, digits and _), not the key itself; use apiKey for a key");
        assertThatThrownBy(() -> new ApiKeySource.Environment(CANARY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining(CANARY);
    }

    @Test
    void theCanaryKeyNeverAppearsInProblemsLogsOrToString() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger("dev.rebound");
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            write("""
                    { "openai": [ { "label": "a", "apiKey": "%1$s" }, { "label": "a", "apiKey": "%1$s" },
                                  { "label": "b", "apiKey": "%1$s", "apiKeyEnv": "%1$s" },
                                  { "label": "c", "apiKeyEnv": "UNSET" }, { "label": "d", "apiKeyEnv": "%1$s" },
                                  { "label": "e", "apiKey": "%1$s", "extra": { "apiKey": "%1$s" } } ],
                      "anthropic": "%1$s" }""".formatted(CANARY));
            if (posix()) {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
            }
            CredentialStore store = open(Map.of());
            store.put("mistral", "z", new ApiKeySource.Literal(new Secret(CANARY)));

            String everything = String.join("\n", described(store))
                    + store.problems()
                    + store
                    + store.forProvider("openai")
                    + store.forProvider("mistral")
                    + new ApiKeySource.Literal(new Secret(CANARY))
                    + appender.list.stream()
                            .map(ILoggingEvent::getFormattedMessage)
                            .toList();
            assertThat(store.problems()).isNotEmpty();
            assertThat(appender.list).isNotEmpty();
            assertThat(everything).doesNotContain(CANARY).doesNotContain("canary");
        } finally {
            logger.detachAppender(appender);
        }
    }
}
