package dev.rebound.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.expiry.ExpiryStore;
import dev.rebound.expiry.MemoryExpiries;
import dev.rebound.settings.ConfigDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialPoolTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
    private static final List<Credential> BUILT_IN = List.of(
            new Credential("simulator", "primary", new Secret("sim-key-primary")),
            new Credential("simulator", "secondary", new Secret("sim-key-secondary")));

    @TempDir
    Path tmp;

    private final MemoryExpiries builtInBlocks = new MemoryExpiries(CLOCK);

    private CredentialPool pool() {
        return pool(BUILT_IN, builtInBlocks);
    }

    /** A pool as one process start makes it: the files under {@code tmp}, its own in-memory blocks. */
    private CredentialPool pool(List<Credential> builtInInEffect, MemoryExpiries memory) {
        ConfigDirectory dir = ConfigDirectory.at(tmp);
        return new CredentialPool(
                CredentialStore.open(dir, Map.of(), CLOCK),
                ExpiryStore.open(tmp.resolve("state/credential-blocks.json"), CLOCK),
                () -> builtInInEffect,
                memory);
    }

    @Test
    void builtInCredentialsServeTheirProviderWhenTheFileHasNoneForIt() throws Exception {
        Files.writeString(
                tmp.resolve("credentials.json"),
                "{ \"openai\": [ { \"label\": \"work\", \"apiKey\": " + "\"sk-0123456789abcdef\" } ] }");
        CredentialPool pool = pool();

        assertThat(pool.credentials("simulator")).extracting(Credential::label).containsExactly("primary", "secondary");
        assertThat(pool.credentials("openai")).extracting(Credential::label).containsExactly("work");
        assertThat(pool.credentials("ollama")).isEmpty();
    }

    @Test
    void credentialsInTheFileWinOverTheBuiltInOnes() throws Exception {
        Files.writeString(
                tmp.resolve("credentials.json"),
                "{ \"simulator\": [ { \"label\": \"mine\", \"apiKey\": " + "\"my-own-simulator-key\" } ] }");

        assertThat(pool().credentials("simulator"))
                .extracting(Credential::label)
                .containsExactly("mine");
    }

    @Test
    void aBlockedBuiltInCredentialCountsLikeAnyOther() {
        CredentialPool pool = pool();

        pool.block("simulator", "primary", CLOCK.millis() + 60_000, "usage_limit");

        assertThat(pool.isBlocked("simulator", "primary")).isTrue();
        assertThat(pool.allBlocked("simulator")).isFalse();
        pool.block("simulator", "secondary", CLOCK.millis() + 60_000, "usage_limit");
        assertThat(pool.allBlocked("simulator")).isTrue();
    }

    @Test
    void blocksOfBuiltInCredentialsAreNeverWrittenSoTheNextStartIsNotBlocked() {
        CredentialPool first = pool();
        first.block("simulator", "primary", CLOCK.millis() + 300_000, "usage_limit");
        first.block("openai", "work", CLOCK.millis() + 300_000, "usage_limit");

        assertThat(first.blockedUntil("simulator", "primary")).hasValue(CLOCK.millis() + 300_000);
        CredentialPool nextStart = pool(BUILT_IN, new MemoryExpiries(CLOCK));
        assertThat(nextStart.isBlocked("simulator", "primary")).isFalse();
        assertThat(nextStart.isBlocked("openai", "work")).isTrue();
    }

    @Test
    void clearingTheInMemoryBlocksLiftsTheBlockOfABuiltInCredential() {
        CredentialPool pool = pool();
        pool.block("simulator", "primary", CLOCK.millis() + 300_000, "usage_limit");

        builtInBlocks.clear();

        assertThat(pool.isBlocked("simulator", "primary")).isFalse();
    }

    @Test
    void aUserProviderCalledSimulatorGetsNoFakeKeysWhileTheBuiltInProviderIsNotInEffect() {
        CredentialPool pool = pool(List.of(), builtInBlocks);

        assertThat(pool.credentials("simulator")).isEmpty();
        pool.block("simulator", "primary", CLOCK.millis() + 300_000, "usage_limit");
        assertThat(builtInBlocks.get("simulator/primary")).isEmpty();
    }
}
