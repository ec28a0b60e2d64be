package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import dev.rebound.event.Notice;
import dev.rebound.history.SessionSummary;
import dev.rebound.session.SessionFactory;
import dev.rebound.ui.DesktopContext;
import dev.rebound.ui.Overloaded;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
        return open(harness.context(null).sessions());
    }

    private ChatWindowViewModel open(SessionFactory sessions) {
        DesktopContext context = harness.context(null);
        return new ChatWindowViewModel(new ChatWindowViewModel.Dependencies(
                sessions,
                context.catalogue(),
                context.settings(),
                fx,
                Runnable::run,
                context.clock(),
                context.zone(),
                new ManualTicker(),
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
        window.start(null, List.of(new Notice(Notice.WARNING, "settings.json: line 3 is odd")));

        fx.runUntil(
                () -> window.current() != null && window.sidebar().sessions().size() == 1, WAIT);
        assertThat(window.stateProperty().get()).isEqualTo(ChatWindowViewModel.State.READY);
        assertThat(window.current().items())
                .containsExactly(new NoticeItem(NoticeItem.Level.WARNING, "settings.json: line 3 is odd"));
        assertThat(listed().id()).isEqualTo(window.current().sessionId());
        assertThat(window.models()).extracting(Object::toString).hasSize(2);
    }

    @Test
    void startingWithAChatMadeBeforeShowsItAtOnceAndListsIt() throws Exception {
        SessionFactory.Opened first = harness.context(null).sessions().create();

        window.startWith(first, List.of(new Notice(Notice.WARNING, "settings.json: line 3 is odd")));

        assertThat(window.current().sessionId()).isEqualTo(first.session().id());
        assertThat(window.stateProperty().get()).isEqualTo(ChatWindowViewModel.State.READY);
        assertThat(window.current().items())
                .containsExactly(new NoticeItem(NoticeItem.Level.WARNING, "settings.json: line 3 is odd"));
        fx.runUntil(() -> window.sidebar().sessions().size() == 1, WAIT);
        assertThat(listed().id()).isEqualTo(first.session().id());
    }

    @Test
    void aNewChatThatCannotBeMadeLeavesTheWindowFailedWithWhatToDo() throws Exception {
        SessionFactory failing = new SessionFactory() {
            @Override
            public Opened create() {
                throw new IllegalStateException("no default model");
            }

            @Override
            public Opened resume(Path file) {
                throw new UnsupportedOperationException();
            }
        };
        window.close();
        window = open(failing);

        window.start(null, List.of());

        fx.runUntil(() -> window.stateProperty().get() == ChatWindowViewModel.State.FAILED, WAIT);
        assertThat(window.current()).isNull();
        assertThat(window.problemProperty().get()).contains("could not be started", "no default model", "Ctrl+N");
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

        fx.runUntil(
                () -> window.current() != null
                        && !window.current().sessionId().equals(first.id())
                        && window.sidebar().sessions().size() == 1
                        && !listed().id().equals(first.id()),
                WAIT);
        assertThat(Files.exists(first.file())).isFalse();
    }

    @Test
    void aSavedChatReopensWithItsPromptsAndReplies() throws Exception {
        server.enqueue(Sse.reply("Saved **answer**"));
        window.start(null, List.of());
        fx.runUntil(() -> window.current() != null, WAIT);
        window.current().send("Remember me");
        fx.runUntil(
                () -> window.current().state() == ChatViewModel.State.IDLE
                        && window.current().items().size() == 2,
                WAIT);
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

    @Test
    void idleChatsBeyondTheFiveMostRecentAreClosedAndReopenWhenSelected() throws Exception {
        server.enqueue(Overloaded.response("retry-after", "30"));
        window.start(null, List.of());
        fx.runUntil(() -> window.current() != null, WAIT);
        ChatViewModel waiting = window.current();
        waiting.send("Hi");
        fx.runUntil(() -> waiting.state() == ChatViewModel.State.RETRY_WAITING, WAIT);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            ChatViewModel before = window.current();
            window.newChat();
            fx.runUntil(() -> window.current() != before, WAIT);
            ids.add(window.current().sessionId());
        }

        assertThat(window.isOpen(waiting.sessionId()))
                .as("a chat whose retry waits stays open")
                .isTrue();
        assertThat(ids.subList(0, 3)).noneMatch(window::isOpen);
        assertThat(ids.subList(3, 7)).allMatch(window::isOpen);

        fx.runUntil(() -> window.sidebar().sessions().size() == 8, WAIT);
        SessionSummary closed = window.sidebar().sessions().stream()
                .filter(s -> s.id().equals(ids.getFirst()))
                .findFirst()
                .orElseThrow();
        window.open(closed);
        fx.runUntil(() -> window.current().sessionId().equals(ids.getFirst()), WAIT);
        assertThat(window.isOpen(ids.getFirst())).isTrue();
        assertThat(window.isOpen(ids.get(3)))
                .as("the least recently shown idle chat makes room")
                .isFalse();
        assertThat(waiting.state()).isEqualTo(ChatViewModel.State.RETRY_WAITING);
    }

    @Test
    void aSidebarListingThatFinishesAfterANewerOneIsDropped() throws Exception {
        java.util.Deque<Runnable> background = new java.util.ArrayDeque<>();
        DesktopContext context = harness.context(null);
        SidebarViewModel sidebar = new SidebarViewModel(context.catalogue(), fx, background::add);
        sidebar.refresh();
        sidebar.refresh();

        background.removeLast().run();
        fx.drain();
        assertThat(sidebar.sessions()).isEmpty();
        context.sessions().create().session().close();
        background.removeLast().run();
        fx.drain();

        assertThat(sidebar.sessions())
                .as("the older listing came last and is dropped")
                .isEmpty();
        assertThat(sidebar.stateProperty().get()).isEqualTo(SidebarViewModel.State.READY);
    }
}
