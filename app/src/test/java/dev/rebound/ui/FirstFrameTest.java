package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.history.SessionSummary;
import dev.rebound.session.SessionFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ListView;
import javafx.stage.Stage;
import javafx.stage.WindowEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;

/**
 * What the window holds as it is first shown: the new chat made before it (the desktop's start), or, without one, a
 * spinner until the chat opened in the background arrives.
 */
class FirstFrameTest {
    @TempDir
    Path configDir;

    private DesktopHarness harness;
    private Stage stage;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void close() throws Exception {
        try {
            if (stage != null) {
                FxToolkit.setupFixture(stage::hide);
            }
        } finally {
            harness.close();
        }
    }

    @Test
    void aChatMadeBeforeTheWindowIsInItsFirstFrameWithItsComposerAndWelcome() throws Exception {
        harness = DesktopHarness.startOffline(configDir, "{}");
        DesktopContext context = harness.context(null);
        SessionFactory.Opened first = context.sessions().create();

        assertThat(showAndDescribeAtShown(context, first)).isEqualTo("composer, welcome");
        // The sidebar lists the chat folder after the chat is shown: a second chat made meanwhile would be listed.
        FxWait.until(() -> sessions().getItems().size() == 1
                && first.session().id().equals(sessions().getItems().getFirst().id()));
        try (var files = Files.list(configDir.resolve("sessions"))) {
            assertThat(files.map(f -> f.getFileName().toString())
                            .filter(name -> name.endsWith(".jsonl"))
                            .toList())
                    .as("the chat shown is the one made before; the window made no second one")
                    .containsExactly(first.session().id() + ".jsonl");
        }
    }

    @Test
    void withoutAChatMadeBeforeItTheWindowOpensOnASpinnerAndTheNewChatFollows() throws Exception {
        harness = DesktopHarness.startOffline(configDir, "{}");
        DesktopContext context = harness.context(null);

        assertThat(showAndDescribeAtShown(context, null)).isEqualTo("spinner");
        FxWait.until(() -> describe(stage.getScene()).equals("composer, welcome"), 10);
    }

    /** Shows the window (into {@link #stage}) and returns what it held when it was shown ({@link #describe}). */
    private String showAndDescribeAtShown(DesktopContext context, SessionFactory.Opened first) throws Exception {
        AtomicReference<String> atShown = new AtomicReference<>();
        stage = FxToolkit.setupFixture(() -> {
            Stage s = new Stage();
            s.addEventHandler(WindowEvent.WINDOW_SHOWN, e -> atShown.set(describe(s.getScene())));
            TestWindows.show(s, context, first, url -> {}, (owner, tab) -> {});
            return s;
        });
        return atShown.get();
    }

    @SuppressWarnings("unchecked")
    private ListView<SessionSummary> sessions() {
        return (ListView<SessionSummary>) stage.getScene().lookup("#sessions");
    }

    private static String describe(Scene scene) {
        Node composer = scene.lookup("#composer");
        if (composer == null) {
            return scene.lookup(".progress-indicator") != null ? "spinner" : "neither chat nor spinner";
        }
        // The retry banner joins the chat when it first shows, not in the first frame.
        return "composer" + (scene.lookup("#welcome") != null ? ", welcome" : "")
                + (scene.lookup("#retry-banner") != null ? ", retry banner" : "");
    }
}
