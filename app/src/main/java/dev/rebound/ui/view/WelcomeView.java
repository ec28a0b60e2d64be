package dev.rebound.ui.view;

import atlantafx.base.theme.Styles;
import javafx.beans.value.ObservableStringValue;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;

/**
 * The first-run welcome over an empty chat while no provider is configured: replies come from the built-in simulator,
 * one button adds a real provider, and a hint points at the "Simulate failures" menu. Its visibility and the model
 * name are bound by the chat pane, which releases them.
 */
final class WelcomeView extends VBox {
    private final Label source = new Label();

    /**
     * @param addProvider opens the settings on the providers tab
     */
    WelcomeView(Runnable addProvider) {
        setId("welcome");
        getStyleClass().add("welcome");
        Label title = new Label("Welcome to Rebound");
        title.getStyleClass().add(Styles.TITLE_3);
        source.setId("welcome-source");
        source.setWrapText(true);
        Button add = new Button("_Add a real provider…");
        add.setId("welcome-add-provider");
        add.setMnemonicParsing(true);
        add.getStyleClass().add(Styles.ACCENT);
        LazyTooltip.install(
                add, "Opens Settings → Providers: add an API (OpenAI, Anthropic, a local server) and its key");
        add.setOnAction(e -> addProvider.run());
        Label hint = new Label("Try a failure: open Simulate failures in the menu bar (Alt+I), pick "
                + "\"Overload ×3 (529)\" and send a message. The retry banner counts down to each retry; press Esc "
                + "or Cancel Retry to stop it, or wait for the reply.");
        hint.setId("welcome-hint");
        hint.setWrapText(true);
        hint.getStyleClass().add(Styles.TEXT_MUTED);
        getChildren().addAll(title, source, add, hint);
    }

    /** Binds the first line to the simulator model's on-screen name. */
    void bindModelName(ObservableStringValue name) {
        source.textProperty()
                .bind(javafx.beans.binding.Bindings.concat(
                        "Replies here come from ",
                        name,
                        ", a simulator built into Rebound: offline, no API key, nothing you type leaves this computer. "
                                + "Its answers are canned, not a real model's."));
    }

    /** Releases the model-name binding. */
    void unbind() {
        source.textProperty().unbind();
    }
}
