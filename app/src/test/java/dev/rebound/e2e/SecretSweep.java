package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The canary check run after each scenario: no piece of any configured secret in the processes' stdout and stderr or
 * in any file of the config directory — the log, chat files, state/, plugin data (the journal plugin's file and the
 * recording plugin's dump of every event and of the settings it was given) — except the two files where the user put
 * them: credentials.json and settings.json (and a backup copy of settings.json). A piece is any run of
 * {@value #PIECE} or more consecutive characters of a secret (a text holds one exactly when it holds one of the
 * secret's {@value #PIECE}-character windows), so a secret cut short, or only its start or end, is found too.
 *
 * <p>The settings and credentials that put the secrets in place are {@link #baseUrlWithPassword},
 * {@link #PROVIDER_SECRETS} and {@link #writeCredentials}; {@code FaultSuiteIT.SECRETS} lists them.
 */
final class SecretSweep {
    /** The shortest run of a secret's characters that counts as a leak. */
    static final int PIECE = 8;

    private SecretSweep() {}

    /** The base URL with the canary password in its user info ({@code http://rebound:<password>@host/...}). */
    static String baseUrlWithPassword(String baseUrl) {
        return baseUrl.replace("http://", "http://rebound:" + FaultSuiteIT.URL_PASSWORD + "@");
    }

    /** The members of a provider's settings object that hold the canary header and query secrets. */
    static final String PROVIDER_SECRETS = "\"headers\": { \"X-Secret-Token\": \"" + FaultSuiteIT.HEADER_SECRET
            + "\" }, \"query\": { \"token\": \"" + FaultSuiteIT.QUERY_SECRET + "\" }";

    /**
     * Rewrites settings.json so that the provider at {@code baseUrl} carries the canary password in its URL and the
     * canary header and query secrets ({@link #PROVIDER_SECRETS}).
     */
    static void addToSettings(Path configDir, String baseUrl) throws IOException {
        Path settings = configDir.resolve("settings.json");
        Files.writeString(
                settings,
                Files.readString(settings)
                        .replace(
                                "\"baseUrl\": \"" + baseUrl + "\"",
                                "\"baseUrl\": \"" + baseUrlWithPassword(baseUrl) + "\", " + PROVIDER_SECRETS));
    }

    /** credentials.json (0600) with one key per provider: provider, label, key, provider, label, key... */
    static void writeCredentials(Path configDir, String... providerLabelKey) throws IOException {
        StringBuilder json = new StringBuilder("{");
        for (int i = 0; i < providerLabelKey.length; i += 3) {
            json.append(i == 0 ? " " : ", ")
                    .append('"')
                    .append(providerLabelKey[i])
                    .append("\": [ { \"label\": \"")
                    .append(providerLabelKey[i + 1])
                    .append("\", \"apiKey\": \"")
                    .append(providerLabelKey[i + 2])
                    .append("\" } ]");
        }
        Path file = configDir.resolve("credentials.json");
        Files.writeString(file, json.append(" }").toString());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    /** Where in {@code text} a piece of one of the secrets is, with some context; empty when none is. */
    static Optional<String> pieceOf(List<String> secrets, String text) {
        for (String secret : secrets) {
            for (int from = 0; from + Math.min(PIECE, secret.length()) <= secret.length(); from++) {
                String window = secret.substring(from, from + Math.min(PIECE, secret.length()));
                int at = text.indexOf(window);
                if (at >= 0) {
                    String context = text.substring(Math.max(0, at - 60), Math.min(text.length(), at + 80));
                    return Optional.of(
                            "'" + window + "' of the secret " + secret + " at offset " + at + ": …" + context + "…");
                }
            }
        }
        return Optional.empty();
    }

    /** Fails when {@code text} holds a piece of one of the secrets. */
    static void assertNoPiece(List<String> secrets, String text, String what) {
        assertThat(pieceOf(secrets, text))
                .as("%s holds no piece of any secret", what)
                .isEmpty();
    }

    static void assertNowhere(List<String> secrets, ReboundProcess process, Path configDir) throws IOException {
        assertNowhere(secrets, List.of(process), configDir);
    }

    /** Every process's stdout and stderr, then every file under the config directory. */
    static void assertNowhere(List<String> secrets, Collection<ReboundProcess> processes, Path configDir)
            throws IOException {
        List<ReboundProcess> all = new ArrayList<>(processes);
        assertThat(all).as("processes swept").isNotEmpty();
        for (int i = 0; i < all.size(); i++) {
            assertNoPiece(secrets, all.get(i).stdout(), "stdout of process " + (i + 1) + " of " + all.size());
            assertNoPiece(secrets, all.get(i).stderr(), "stderr of process " + (i + 1) + " of " + all.size());
        }
        assertFilesClean(secrets, configDir);
    }

    static void assertFilesClean(List<String> secrets, Path configDir) throws IOException {
        int checked = 0;
        try (Stream<Path> files = Files.walk(configDir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = file.getFileName().toString();
                if (name.equals("credentials.json") || name.startsWith("settings.json")) {
                    continue;
                }
                byte[] bytes = Files.readAllBytes(file);
                if (name.endsWith(".gz")) {
                    bytes = new GZIPInputStream(new ByteArrayInputStream(bytes)).readAllBytes();
                }
                assertNoPiece(
                        secrets,
                        new String(bytes, StandardCharsets.ISO_8859_1),
                        configDir.relativize(file).toString());
                checked++;
            }
        }
        assertThat(checked).as("files swept under %s", configDir).isPositive();
    }
}
