package dev.rebound.ui.settings;

import dev.rebound.ui.settings.model.ChatTabModel;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The Chat tab: the default system prompt, a multi-line text with its hint and its reason. */
final class ChatTab {
    private ChatTab() {}

    static Node build(ChatTabModel model, Subscriptions subs) {
        TextArea prompt = new TextArea();
        prompt.setId("chat-systemPrompt");
        prompt.setWrapText(true);
        prompt.setPrefRowCount(10);
        prompt.setPromptText("For example: Answer briefly. Use metric units. Say when you are unsure.");
        subs.bindBidirectional(prompt.textProperty(), model.systemPrompt().textProperty());
        VBox.setVgrow(prompt, Priority.ALWAYS);
        Label hint = new Label("Sent to the model before every chat that has no system prompt of its own (Chat → "
                + "System prompt… sets one for a chat). Leave it empty to send none. Saved chats use the new text "
                + "from their next message.");
        hint.setWrapText(true);
        hint.getStyleClass().add("field-hint");
        Label error = Forms.errorLabel("chat-systemPrompt-error", model.systemPrompt(), prompt, subs);
        VBox body = new VBox(Forms.label("Default _system prompt", prompt), prompt, error, hint);
        body.getStyleClass().add("settings-tab-body");
        return body;
    }
}
