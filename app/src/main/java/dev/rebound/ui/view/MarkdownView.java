package dev.rebound.ui.view;

import java.util.List;
import javafx.scene.Node;
import javafx.scene.layout.VBox;

/**
 * A reply rendered as Markdown. While it streams, settled blocks are rendered once and kept; only the blocks after the
 * last settled one are parsed and rendered again as text arrives ({@link MarkdownStream}).
 */
final class MarkdownView extends VBox {
    private final MarkdownRenderer renderer;
    private final MarkdownStream stream = new MarkdownStream();
    private List<Node> tail = List.of();

    MarkdownView(MarkdownRenderer renderer) {
        this.renderer = renderer;
        getStyleClass().add("markdown");
    }

    /** Renders a complete text from scratch. */
    void showAll(CharSequence source) {
        stream.reset();
        tail = List.of();
        getChildren().setAll(stream.all(source).stream().map(renderer::block).toList());
    }

    /** Starts a streaming text from its beginning. */
    void restart() {
        stream.reset();
        tail = List.of();
        getChildren().clear();
    }

    /** Catches up with a streaming text that grew since the last call. */
    void advance(CharSequence source) {
        MarkdownStream.Update update = stream.advance(source);
        getChildren().remove(getChildren().size() - tail.size(), getChildren().size());
        for (org.commonmark.node.Node block : update.settledBlocks()) {
            getChildren().add(renderer.block(block));
        }
        tail = update.tail().stream().map(renderer::block).toList();
        getChildren().addAll(tail);
    }
}
