package dev.rebound.ui.view;

import java.util.ArrayList;
import java.util.List;
import javafx.animation.Animation;
import javafx.animation.PauseTransition;
import javafx.scene.Node;
import javafx.scene.layout.VBox;
import javafx.util.Duration;

/**
 * A reply rendered as Markdown. While it streams, settled blocks are rendered once and kept; only the blocks after the
 * last settled one are parsed and rendered again as text arrives ({@link MarkdownStream}). A long open block is
 * parsed and rendered again only once it grew by an eighth ({@link MarkdownStream#due}), and otherwise a short while
 * after the last update ({@link #CATCH_UP}), so it keeps up with a stream without costing work quadratic in its length;
 * {@link #flush} renders the end exactly.
 */
final class MarkdownView extends VBox {
    /** How long a deferred update of a long open block may wait for the next one. */
    static final Duration CATCH_UP = Duration.millis(250);

    private final MarkdownRenderer renderer;
    private final MarkdownStream stream = new MarkdownStream();
    private List<Node> tail = List.of();
    private PauseTransition catchUp;
    private CharSequence deferred;
    private Runnable onRendered = () -> {};

    MarkdownView(MarkdownRenderer renderer) {
        this.renderer = renderer;
        getStyleClass().add("markdown");
    }

    /** Runs {@code action} after each change of the rendered blocks (the selection repaints its highlight). */
    void setOnRendered(Runnable action) {
        onRendered = action;
    }

    /** Renders a complete text from scratch. */
    void showAll(CharSequence source) {
        cancelCatchUp();
        stream.reset();
        tail = List.of();
        getChildren().setAll(stream.all(source).stream().map(renderer::block).toList());
        onRendered.run();
    }

    /** Starts a streaming text from its beginning. */
    void restart() {
        cancelCatchUp();
        stream.reset();
        tail = List.of();
        getChildren().clear();
        onRendered.run();
    }

    /** Catches up with a streaming text that grew since the last call (a long open block perhaps a little later). */
    void advance(CharSequence source) {
        if (stream.upToDate(source)) {
            return;
        }
        if (!stream.due(source)) {
            deferred = source;
            if (catchUp == null) {
                catchUp = new PauseTransition(CATCH_UP);
                catchUp.setOnFinished(e -> {
                    if (deferred != null) {
                        render(deferred, false);
                    }
                });
            }
            if (catchUp.getStatus() != Animation.Status.RUNNING) {
                catchUp.playFromStart();
            }
            return;
        }
        render(source, false);
    }

    /**
     * Renders everything received so far now (the stream ended or paused). A text that became shorter than what was
     * shown — a reply's part that ends at a cut found only after more of the reply had been shown in it — is rendered
     * again whole, so no block past the part's end stays on screen.
     */
    void flush(CharSequence source) {
        if (stream.parsedPast(source)) {
            showAll(source);
            return;
        }
        render(source, true);
    }

    /** Stops a pending deferred update (the view is being let go). */
    void cancelCatchUp() {
        deferred = null;
        if (catchUp != null) {
            catchUp.stop();
        }
    }

    /** Renders what came since the last call; {@code ended}: the text is complete, and so is its last block. */
    private void render(CharSequence source, boolean ended) {
        deferred = null;
        MarkdownStream.Update update = stream.advance(source);
        List<CodeBlock> reusable = new ArrayList<>();
        for (Node node : tail) {
            if (node instanceof CodeBlock code) {
                reusable.add(code);
            }
        }
        getChildren().remove(getChildren().size() - tail.size(), getChildren().size());
        for (org.commonmark.node.Node block : update.settledBlocks()) {
            getChildren().add(renderer.block(block, reusable, true));
        }
        tail = update.tail().stream()
                .map(block -> renderer.block(block, reusable, ended))
                .toList();
        getChildren().addAll(tail);
        onRendered.run();
    }
}
