package dev.rebound.ui.model;

import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** The composer: the draft, whether it can be sent, and Send/Stop. Confined to the FX thread. */
public final class ComposerViewModel {
    private final ChatViewModel chat;
    private final StringProperty draft = new SimpleStringProperty(this, "draft", "");
    private final ReadOnlyBooleanWrapper editing = new ReadOnlyBooleanWrapper(this, "editing");
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
        if (editing.get() ? chat.resendEdited(text) : chat.send(text)) {
            draft.set("");
            editing.set(false);
            return true;
        }
        return false;
    }

    /**
     * Edit: the last prompt's text goes into the composer, and the next send replaces that prompt (and its reply)
     * instead of adding a new one. Does nothing while a turn runs or before the first prompt.
     *
     * @return whether editing began
     */
    public boolean editLast() {
        UserItem last = chat.lastPromptProperty().get();
        if (last == null || !chat.canRewriteProperty().get()) {
            return false;
        }
        draft.set(last.text());
        editing.set(true);
        return true;
    }

    /** Leaves editing: the draft is emptied and the next send adds a new prompt again. */
    public void cancelEdit() {
        if (editing.get()) {
            editing.set(false);
            draft.set("");
        }
    }

    /** Whether the draft replaces the last prompt when sent. */
    public ReadOnlyBooleanProperty editingProperty() {
        return editing.getReadOnlyProperty();
    }

    /** Stops the running turn. */
    public void stop() {
        chat.stop();
    }
}
