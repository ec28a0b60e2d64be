package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.session.ChatSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chat the desktop's start opens ({@link DesktopApp#firstChat}): remembered in {@code state/desktop.json}, and
 * opened again by the next start while it holds nothing.
 */
class FirstChatTest {
    @TempDir
    Path configDir;

    private DesktopHarness harness;
    private DesktopContext context;
    private Path prefs;

    @BeforeEach
    void start() throws Exception {
        harness = DesktopHarness.startOffline(configDir, "{}");
        context = harness.context(null);
        prefs = configDir.resolve("state/desktop.json");
    }

    @AfterEach
    void close() {
        harness.close();
    }

    /** What a start of the window opens, with the preferences as the file holds them now. */
    private ChatSession openFirstChat() {
        return DesktopApp.firstChat(context, UiPreferences.load(prefs)).session();
    }

    @Test
    void aStartRemembersItsChatAndTheNextStartOpensItAgainWhileItHoldsNothing() throws Exception {
        String first;
        try (ChatSession chat = openFirstChat()) {
            first = chat.id();
        }
        awaitStartChat(prefs, first);

        try (ChatSession chat = openFirstChat()) {
            assertThat(chat.id()).isEqualTo(first);
        }
        try (Stream<Path> files = Files.list(configDir.resolve("sessions"))) {
            assertThat(files.filter(f -> f.toString().endsWith(".jsonl"))).hasSize(1);
        }
    }

    @Test
    void aChatThatGotAMessageIsNotReopenedAndTheNewOneIsRemembered() throws Exception {
        String used;
        try (ChatSession chat = openFirstChat()) {
            used = chat.id();
            chat.setTitle("Plans");
        }
        awaitStartChat(prefs, used);

        String next;
        try (ChatSession chat = openFirstChat()) {
            next = chat.id();
        }

        assertThat(next).isNotEqualTo(used);
        awaitStartChat(prefs, next);
    }

    private static void awaitStartChat(Path prefs, String id) throws Exception {
        Instant until = Instant.now().plus(Duration.ofSeconds(10));
        while (!id.equals(UiPreferences.load(prefs).startChat())) {
            assertThat(Instant.now()).as("desktop.json names chat " + id).isBefore(until);
            Thread.sleep(10);
        }
    }
}
