package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.api.Notice;
import dev.rebound.e2e.Sse;
import dev.rebound.history.SessionSummary;
import dev.rebound.ui.DesktopContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The window's view-model on the real session core and history catalogue: new, rename, delete, reopen. */
class ChatWindowViewModelTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path configDir;
    private final MockWebServer server = new MockWebServer();
    private final FxQueue fx = new FxQueue();
    private DesktopHarness harness;
    private ChatWindowViewModel window;

    @BeforeEach
    void start() throws Exception {
        server.start();
        harness = DesktopHarness.start(configDir, server.url("/v1").toString(), "{}");
        window = open();
    }

    private ChatWindowViewModel open() {
        DesktopContext context = harness.context(null);
        return new ChatWindowViewModel(new ChatWindowViewModel.Dependencies(context.sessions(), context.catalogue(),
                context.settings(), fx, Runnable::run, context.clock(), context.zone(), new ManualTicker(),
                context.simulator()));
    }

    @AfterEach
    void stop() throws Exception {
        window.close();
        harness.close();
        server.close();
    }

    private SessionSummary listed() {
        return window.sidebar().sessions().getFirst();
    }

    @Test
    void startingOpensANewChatWithTheStartupNoticesAndListsIt() throws Exception {
        window.start(null, List.<String[]>of(new String[] {Notice.WARNING, "settings.json: line 3 is odd"}));

        fx.runUntil(() -> window.current() != null && window.sidebar().sessions().size() == 1, WAIT);
        assertThat(window.stateProperty().get()).isEqualTo(ChatWindowViewModel.State.READY);
        assertThat(window.current().items())
                .containsExactly(new NoticeItem(NoticeItem.Level.WARNING, "settings.json: line 3 is odd"));
        assertThat(listed().id()).isEqualTo(window.current().sessionId());
        assertThat(window.models()).extracting(Object::toString).hasSize(2);
    }

    @Test
    void renamingTheOpenChatShowsTheNewTitleInTheSidebar() throws Exception {
        window.start(null, List.of());
        fx.runUntil(() -> window.sidebar().sessions().size() == 1, WAIT);

        window.rename(listed(), "  Trip   plans ");

        fx.runUntil(() -> "Trip plans".equals(listed().title()), WAIT);
    }

    @Test
    void deletingTheShownChatMovesItsFileToTheTrashAndShowsAFreshChat() throws Exception {
        window.start(null, List.of());
        fx.runUntil(() -> window.sidebar().sessions().size() == 1, WAIT);
        SessionSummary first = listed();

        window.delete(first);

        fx.runUntil(() -> window.current() != null && !window.current().sessionId().equals(first.id())
                && window.sidebar().sessions().size() == 1 && !listed().id().equals(first.id()), WAIT);
        assertThat(Files.exists(first.file())).isFalse();
    }

    @Test
    void aSavedChatReopensWithItsPromptsAndReplies() throws Exception {
        server.enqueue(Sse.reply("Saved **answer**"));
        window.start(null, List.of());
        fx.runUntil(() -> window.current() != null, WAIT);
        window.current().send("Remember me");
        fx.runUntil(() -> window.current().state() == ChatViewModel.State.IDLE
                && window.current().items().size() == 2, WAIT);
        String id = window.current().sessionId();
        fx.runUntil(() -> window.sidebar().sessions().size() == 1, WAIT);
        Path file = listed().file();
        window.close();

        window = open();
        window.start(file, List.of());

        fx.runUntil(() -> window.current() != null, WAIT);
        assertThat(window.current().sessionId()).isEqualTo(id);
        assertThat(window.current().items()).hasSize(2);
        assertThat(window.current().items().getFirst()).isEqualTo(new UserItem("Remember me"));
        AssistantItem reply = (AssistantItem) window.current().items().get(1);
        assertThat(reply.text().toString()).isEqualTo("Saved **answer**");
        assertThat(reply.status()).isEqualTo(AssistantItem.Status.DONE);
    }
}
