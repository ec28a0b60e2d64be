package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.app.DesktopHarness;
import dev.rebound.e2e.Sse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The real chat window on the real session core against a loopback server, driven by a robot as a person would:
 * type and press Enter, click Cancel Retry, press Esc. Runs on JavaFX's headless platform (see the surefire
 * configuration), so it needs no display.
 */
class ChatWindowTest {
    @TempDir
    Path configDir;
    private final MockWebServer server = new MockWebServer();
    private final FxRobot robot = new FxRobot();
    private WindowFixture window;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    private void openWindow(String retry) throws Exception {
        server.start();
        window = WindowFixture.open(DesktopHarness.start(configDir, server.url("/v1").toString(), retry), configDir,
                (owner, tab) -> { });
    }

    @AfterEach
    void close() throws Exception {
        if (window != null) {
            window.close();
        }
        server.close();
    }

    private static void waitFor(Callable<Boolean> condition) throws Exception {
        WindowFixture.waitFor(condition);
    }

    private void sendPrompt(String text) {
        robot.clickOn("#composer").write(text).type(KeyCode.ENTER);
    }

    private boolean bannerShown() {
        return robot.lookup("#retry-banner").tryQuery().map(Node::isVisible).orElse(false);
    }

    private boolean shows(String text) {
        return robot.lookup((Node n) -> n instanceof Label l && text.equals(l.getText()) && l.isVisible())
                .tryQuery().isPresent();
    }

    private boolean idle() {
        return robot.lookup("#send").tryQuery().map(Node::isVisible).orElse(false);
    }

    private String headline() {
        return robot.lookup("#retry-headline").queryAs(Label.class).getText();
    }

    @Test
    void enterSendsThePromptAndTheStreamedReplyIsRenderedAsMarkdown() throws Exception {
        openWindow("{}");
        server.enqueue(Sse.reply("# Plan\n\n", "Use **bold** and `code`.\n\n", "| a | b |\n|---|---|\n| 1 | 2 |\n\n",
                "```java\nint x = 1;\n```\n", "\nSee [docs](https://example.com)."));

        sendPrompt("Hello there");

        waitFor(() -> robot.lookup(".md-strong").tryQuery().isPresent() && robot.lookup(".md-table").tryQuery()
                .isPresent() && robot.lookup(".md-link").tryQuery().isPresent() && idle());
        assertThat(robot.lookup(".md-strong").queryAs(Text.class).getText()).isEqualTo("bold");
        assertThat(robot.lookup(".md-h1 .md-text").queryAs(Text.class).getText()).isEqualTo("Plan");
        assertThat(robot.lookup(".md-code-text").queryAs(Text.class).getText()).isEqualTo("int x = 1;");
        assertThat(robot.lookup(".md-copy").tryQuery()).isPresent();
        assertThat(robot.lookup("#composer").queryTextInputControl().getText()).isEmpty();
        RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(request.getBody().utf8()).contains("Hello there");
    }

    @Test
    void threeOverloadsShowTheBannerCountingDownThenTheReplyArrivesAndTheBannerGoes() throws Exception {
        openWindow("{\"baseDelayMs\": 10}");
        server.enqueue(Overloaded.response("retry-after", "2"));
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        server.enqueue(Sse.reply("Made **it**"));

        sendPrompt("Hi");

        waitFor(this::bannerShown);
        waitFor(() -> robot.lookup(".md-strong").tryQuery().isPresent() && !bannerShown() && idle());
        List<String> headlines = window.headlines();
        assertThat(headlines).contains("Retrying (1/10) in 2s… (Esc to cancel)", "Retrying (1/10) in 1s… (Esc to cancel)");
        assertThat(headlines.indexOf("Retrying (1/10) in 1s… (Esc to cancel)"))
                .isGreaterThan(headlines.indexOf("Retrying (1/10) in 2s… (Esc to cancel)"));
        assertThat(server.getRequestCount()).isEqualTo(4);
    }

    @Test
    void anExhaustedChainLeavesTheReplySayingHowManyAttemptsFailed() throws Exception {
        openWindow("{\"maxRetries\": 2, \"baseDelayMs\": 10}");
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());

        sendPrompt("Hi");

        waitFor(() -> !bannerShown() && idle() && robot.lookup(".reply-error").tryQuery().isPresent());
        assertThat(robot.lookup(".reply-error").queryAs(Label.class).getText())
                .startsWith("Retry failed after 2 attempts: ").contains("Overloaded");
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void cancelRetryEndsTheChainAndNoFurtherRequestIsSent() throws Exception {
        openWindow("{}");
        server.enqueue(Overloaded.response("retry-after", "30"));
        server.enqueue(Sse.reply("must not be asked for"));

        sendPrompt("Hi");
        waitFor(this::bannerShown);
        assertThat(headline()).startsWith("Retrying (1/10) in ");
        robot.clickOn("#cancel-retry");

        waitFor(() -> !bannerShown() && shows("Retry cancelled") && idle());
        assertThat(server.takeRequest(1, TimeUnit.SECONDS)).isNotNull();
        assertThat(server.takeRequest(300, TimeUnit.MILLISECONDS)).isNull();
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void escWithTheFocusInTheComposerCancelsTheRetry() throws Exception {
        openWindow("{}");
        server.enqueue(Overloaded.response("retry-after", "30"));

        sendPrompt("Hi");
        waitFor(this::bannerShown);
        robot.clickOn("#composer").write("a draft");
        robot.type(KeyCode.ESCAPE);

        waitFor(() -> !bannerShown() && shows("Retry cancelled") && idle());
        assertThat(robot.lookup("#composer").queryTextInputControl().getText()).isEqualTo("a draft");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void escCancelsTheThirdRetryOfAChain() throws Exception {
        openWindow("{\"baseDelayMs\": 10}");
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response());
        server.enqueue(Overloaded.response("retry-after", "30"));
        server.enqueue(Sse.reply("must not be asked for"));

        sendPrompt("Hi");
        waitFor(() -> bannerShown() && headline().startsWith("Retrying (3/10) in "));
        robot.type(KeyCode.ESCAPE);

        waitFor(() -> !bannerShown() && shows("Retry cancelled") && idle());
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void retryNowSendsTheNextRequestAtOnce() throws Exception {
        openWindow("{}");
        server.enqueue(Overloaded.response("retry-after", "30"));
        server.enqueue(Sse.reply("Right **away**"));

        sendPrompt("Hi");
        waitFor(this::bannerShown);
        long clicked = System.nanoTime();
        robot.clickOn("#retry-now");

        waitFor(() -> robot.lookup(".md-strong").tryQuery().isPresent() && !bannerShown() && idle());
        assertThat(Duration.ofNanos(System.nanoTime() - clicked)).isLessThan(Duration.ofSeconds(10));
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void aLongProviderErrorWrapsBesideTheBannerButtonsInsteadOfShorteningThem() throws Exception {
        openWindow("{}");
        String message = "Rate limit reached for gpt-4.1-mini in organization org-example on requests per min (RPM): "
                + "Limit 3, Used 3, Requested 1. Please try again in 30s. Visit the rate limits page to learn more.";
        server.enqueue(new MockResponse.Builder().code(429).addHeader("Content-Type", "application/json")
                .addHeader("retry-after", "30")
                .body("{\"error\":{\"type\":\"requests\",\"code\":\"rate_limit_exceeded\",\"message\":\""
                        + message + "\"}}")
                .build());

        sendPrompt("Hi");
        waitFor(this::bannerShown);
        WaitForAsyncUtils.waitForFxEvents();

        for (String id : List.of("#retry-now", "#cancel-retry")) {
            Button button = robot.lookup(id).queryAs(Button.class);
            double preferred = WaitForAsyncUtils.asyncFx(() -> button.prefWidth(-1)).get();
            assertThat(button.getWidth()).as(id + " width").isGreaterThanOrEqualTo(preferred - 0.5);
        }
        robot.clickOn("#cancel-retry");
        waitFor(() -> !bannerShown() && idle());
    }
}
