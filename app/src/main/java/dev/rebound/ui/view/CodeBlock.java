package dev.rebound.ui.view;

import atlantafx.base.theme.Styles;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * A fenced or indented code block: its language (the fence's first word, or "code"), a Copy button that copies the
 * raw code, and the highlighted lines ({@link CodeBody}). While a reply streams, the block that is still being
 * written is kept and given the longer code ({@link #show}) rather than made again, so only its new lines are lexed.
 */
final class CodeBlock extends VBox {
    private final String info;
    private final CodeBody body;
    private final Button copy = new Button("Copy");

    CodeBlock(String info, String code, boolean complete) {
        this.info = info == null ? "" : info;
        this.body = new CodeBody(CodeLanguage.ofInfo(this.info));
        Label language =
                new Label(this.info.isBlank() ? "code" : this.info.strip().split("\\s+")[0]);
        language.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
        copy.getStyleClass().addAll(Styles.SMALL, Styles.FLAT, "md-copy");
        LazyTooltip.install(copy, "Copy this code to the clipboard");
        copy.setAccessibleText("Copy code");
        copy.setOnAction(e -> {
            ClipboardContent content = new ClipboardContent();
            content.putString(body.code());
            Clipboard.getSystemClipboard().setContent(content);
            copy.setText("Copied");
        });
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox header = new HBox(language, spacer, copy);
        header.setAlignment(Pos.CENTER_LEFT);
        getChildren().addAll(header, body);
        getStyleClass().add("md-code-block");
        body.show(code, complete);
    }

    /** Whether this block can show {@code code} of a block with this info string as its continuation. */
    boolean continuedBy(String otherInfo, String code) {
        return info.equals(otherInfo == null ? "" : otherInfo) && body.continuedBy(code);
    }

    /** Shows the block's code, grown since it was made ({@code complete}: its end has come). */
    void show(String code, boolean complete) {
        body.show(code, complete);
    }

    CodeBody body() {
        return body;
    }
}
