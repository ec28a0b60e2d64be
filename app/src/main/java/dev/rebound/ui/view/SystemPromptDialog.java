package dev.rebound.ui.view;

import atlantafx.base.theme.Styles;
import dev.rebound.settings.SettingsValidator;
import dev.rebound.ui.model.ChatViewModel;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * Chat → System prompt…: this chat's own instructions, or the settings' default (shown, read-only, while "Use the
 * default" is ticked). OK applies from the chat's next message on; Cancel changes nothing.
 */
final class SystemPromptDialog {
    private SystemPromptDialog() {}

    /** Shows the dialog over {@code owner} and applies the choice to {@code chat} when OK is pressed. */
    static void edit(Window owner, ChatViewModel chat, String defaultPrompt) {
        String own = chat.systemPromptProperty().get();
        CheckBox useDefault = new CheckBox("Use the _default from Settings → Chat");
        useDefault.setId("system-prompt-default");
        useDefault.setSelected(own == null);
        TextArea text = new TextArea(own == null ? defaultPrompt : own);
        text.setId("system-prompt-text");
        text.setWrapText(true);
        text.setPrefRowCount(10);
        text.setPrefColumnCount(60);
        text.setPromptText("Instructions for the model in this chat, e.g. \"Answer in French.\"");
        text.disableProperty().bind(useDefault.selectedProperty());
        String[] typed = {own == null ? "" : own};
        useDefault.selectedProperty().addListener((obs, was, now) -> {
            if (now) {
                typed[0] = text.getText();
                text.setText(defaultPrompt);
            } else {
                text.setText(typed[0]);
                text.requestFocus();
            }
        });
        Label hint = new Label(
                defaultPrompt.isEmpty()
                        ? "No default is set in Settings → Chat: with the default, no system prompt is sent."
                        : "The default applies to every chat without its own.");
        hint.setWrapText(true);
        hint.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
        VBox content = new VBox(useDefault, text, hint);
        content.getStyleClass().add("system-prompt-dialog");

        Dialog<ButtonType> dialog = new Dialog<>();
        dialog.initOwner(owner);
        dialog.setTitle("System prompt of this chat");
        dialog.setHeaderText("Instructions sent to the model with every message of this chat");
        dialog.getDialogPane().setContent(content);
        ButtonType ok = new ButtonType("OK", ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
        int max = SettingsValidator.MAX_SYSTEM_PROMPT;
        var tooLong = Bindings.createBooleanBinding(
                () -> !useDefault.isSelected() && text.getText().strip().length() > max,
                useDefault.selectedProperty(),
                text.textProperty());
        dialog.getDialogPane().lookupButton(ok).disableProperty().bind(tooLong);
        Label limit = new Label("At most %,d characters.".formatted(max));
        limit.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.DANGER);
        limit.visibleProperty().bind(tooLong);
        limit.managedProperty().bind(tooLong);
        content.getChildren().add(limit);
        dialog.setOnShown(e -> (useDefault.isSelected() ? useDefault : text).requestFocus());
        Optional<ButtonType> choice = dialog.showAndWait();
        if (choice.isPresent() && choice.get() == ok) {
            chat.setSystemPrompt(useDefault.isSelected() ? null : text.getText());
        }
    }
}
