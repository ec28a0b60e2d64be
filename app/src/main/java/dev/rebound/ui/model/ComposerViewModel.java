package dev.rebound.ui.model;

import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** The composer: the draft, whether it can be sent, and Send/Stop. Confined to the FX thread. */
public final class ComposerViewModel {
    private final ChatViewModel chat;
    private final StringProperty draft = new SimpleStringProperty(this, "draft", "");
    private final BooleanBinding running;
    private final BooleanBinding canSend;

    ComposerViewModel(ChatViewModel chat) {
        this.chat = chat;
        this.running =
                Bindings.createBooleanBinding(() -> chat.state() != ChatViewModel.State.IDLE, chat.stateProperty());
        this.canSend = Bindings.createBooleanBinding(
                () -> !running.get() && !draft.get().isBlank(), running, draft);
    }

    /** The text being written. */
    public StringProperty draftProperty() {
        return draft;
    }

    /** True while a turn runs: Stop replaces Send. */
    public BooleanBinding runningProperty() {
        return running;
    }

    public BooleanBinding canSendProperty() {
        return canSend;
    }

    /**
     * Sends the draft and clears it; does nothing while a turn runs or the draft is blank.
     *
     * @return whether the draft was sent
     */
    public boolean send() {
        if (!canSend.get()) {
            return false;
        }
        String text = draft.get().strip();
        if (chat.send(text)) {
            draft.set("");
            return true;
        }
        return false;
    }

    /** Stops the running turn. */
    public void stop() {
        chat.stop();
    }
}
