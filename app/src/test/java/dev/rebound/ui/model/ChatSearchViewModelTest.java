package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.history.ChatSearch;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.SessionJournal;
import dev.rebound.transcript.UserMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sidebar's search, with the background and the FX thread both driven by the test. */
class ChatSearchViewModelTest {
    private static final long T0 = 1_796_121_000_000L;

    @TempDir
    Path sessions;

    private final FxQueue fx = new FxQueue();
    private final HeldTasks background = new HeldTasks();
    private ChatSearchViewModel search;

    @BeforeEach
    void setUp() throws Exception {
        chat("alpha-chat", "the alpha release");
        chat("beta-chat", "the beta release");
        search = new ChatSearchViewModel(new ChatSearch(sessions), fx, background);
    }

    @Test
    void aResultThatArrivesAfterANewerQueryIsDropped() {
        search.queryProperty().set("alpha");
        Runnable alpha = background.take();
        search.queryProperty().set("beta");
        Runnable beta = background.take();

        beta.run();
        fx.drain();
        assertThat(titlesShown()).containsExactly("beta-chat");

        alpha.run();
        fx.drain();

        assertThat(titlesShown()).containsExactly("beta-chat");
        assertThat(search.stateProperty().get()).isEqualTo(ChatSearchViewModel.State.READY);
        assertThat(search.summaryProperty().get()).isEqualTo("1 chat");
    }

    @Test
    void aResultReadyOnTheFxQueueWhenTheQueryChangesIsDropped() {
        search.queryProperty().set("alpha");
        Runnable alpha = background.take();
        alpha.run();
        search.queryProperty().set("release");
        Runnable release = background.take();
        release.run();

        fx.drain();

        assertThat(titlesShown()).containsExactlyInAnyOrder("alpha-chat", "beta-chat");
        assertThat(search.summaryProperty().get()).isEqualTo("2 chats");
    }

    @Test
    void clearingTheQueryShowsNoHitsEvenWhenASearchFinishesLater() {
        search.queryProperty().set("alpha");
        Runnable alpha = background.take();

        search.clear();
        alpha.run();
        fx.drain();

        assertThat(search.active()).isFalse();
        assertThat(search.hits()).isEmpty();
        assertThat(search.stateProperty().get()).isEqualTo(ChatSearchViewModel.State.IDLE);
    }

    @Test
    void aQueryThatMatchesNothingSaysSo() {
        search.queryProperty().set("gamma");
        background.take().run();
        fx.drain();

        assertThat(search.hits()).isEmpty();
        assertThat(search.summaryProperty().get()).isEqualTo("No chat matches");
    }

    private List<String> titlesShown() {
        return search.hits().stream().map(ChatSearch.Hit::displayTitle).toList();
    }

    private void chat(String title, String text) throws Exception {
        Files.createDirectories(sessions);
        try (SessionJournal journal = SessionJournal.create(sessions, title, T0, title)) {
            journal.append(MessageEntry.of(new UserMessage("u1", text, T0 + 1)));
        }
    }

    /** Background work held until the test runs it, in whatever order it likes. */
    private static final class HeldTasks implements Executor {
        private final List<Runnable> tasks = new ArrayList<>();

        @Override
        public void execute(Runnable command) {
            tasks.add(command);
        }

        Runnable take() {
            assertThat(tasks).hasSize(1);
            return tasks.removeFirst();
        }
    }
}
