package dev.rebound.ui.view;

import atlantafx.base.theme.Styles;
import dev.rebound.transcript.ModelRef;
import dev.rebound.ui.model.Announcement;
import dev.rebound.ui.model.ChatRow;
import dev.rebound.ui.model.ChatViewModel;
import dev.rebound.ui.model.ChatWindowViewModel;
import dev.rebound.ui.model.ComposerViewModel;
import dev.rebound.ui.model.ModelNames;
import dev.rebound.ui.model.ReplyPart;
import dev.rebound.ui.model.RetryBannerViewModel;
import dev.rebound.ui.model.UserItem;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.value.ChangeListener;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Pos;
import javafx.scene.AccessibleAttribute;
import javafx.scene.AccessibleRole;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * The chat shown: a header with the model picker and the fallback chip, the virtualised message list, the retry
 * banner and the composer. Everything it binds to its view-model is released by {@link #dispose()}.
 */
final class ChatPane extends BorderPane {
    private final ChatViewModel chat;
    private final List<Runnable> disposers = new ArrayList<>();
    private final ListView<ChatRow> list = new ListView<>();
    private final TextArea composer = new TextArea();
    /** Every row cell made, so {@link #dispose()} can take their listeners off the chat's rows. */
    private final List<MessageCell> cells = new ArrayList<>();
    /** Keeps the end of the chat in view while it grows, unless the reader scrolled up. */
    private final EndFollower follower = new EndFollower(list);

    /**
     * @param window the window's models, model names and whether the built-in simulator is the provider
     * @param addProvider opens the settings on the providers tab (the welcome view's button)
     */
    ChatPane(ChatViewModel chat, ChatWindowViewModel window, MarkdownRenderer renderer, Runnable addProvider) {
        this.chat = chat;
        getStyleClass().add("chat-pane");
        HBox header = header(window.models(), window.modelNames());
        header.getChildren().add(systemPromptChip(window));
        setTop(header);
        list.getStyleClass().addAll("chat-list", Styles.DENSE);
        list.setItems(chat.rows());
        TextSelector selector = new TextSelector(list, cells, chat.selection(), renderer);
        disposers.add(selector::dispose);
        list.setCellFactory(v -> {
            MessageCell cell = new MessageCell(chat, renderer, selector);
            cells.add(cell);
            return cell;
        });
        list.setPlaceholder(new Label("Ask anything. Enter sends, Shift+Enter starts a new line."));
        // A prompt or a new reply is always shown; a notice or a reply's next part only while the end is followed.
        ListChangeListener<ChatRow> added = change -> {
            while (change.next()) {
                if (change.getAddedSubList().stream()
                        .anyMatch(
                                row -> row instanceof UserItem || row instanceof ReplyPart part && part.index() == 0)) {
                    follower.follow();
                }
            }
        };
        chat.rows().addListener(added);
        disposers.add(() -> chat.rows().removeListener(added));
        disposers.add(follower::dispose);
        VBox.setVgrow(list, Priority.ALWAYS);
        setCenter(new VBox(welcome(window, addProvider), list));
        HBox composerRow = composer(chat.composer());
        Node announcer = announcer(chat);
        VBox bottom = new VBox(announcer, composerRow);
        bannerWhenFirstShown(bottom, announcer, chat.banner());
        editingLine(bottom, composerRow, chat.composer());
        bottom.getStyleClass().add("chat-bottom");
        setBottom(bottom);
    }

    /** The chat this pane shows. */
    ChatViewModel chat() {
        return chat;
    }

    /** Puts the caret into the composer. */
    void focusComposer() {
        composer.requestFocus();
    }

    /**
     * Keeps the reader's place when the text size changed. The rows in view are laid out again at their new heights
     * (the font size is inherited through CSS, and every size in rebound.css is in em); the list measures the others
     * when they come into view. While the end is followed it stays in view; a reader who scrolled away keeps the row at
     * the top of the list at the top.
     */
    void zoomed() {
        follower.keepPlace();
    }

    /** Releases every binding and listener this pane holds on its view-model. */
    void dispose() {
        disposers.forEach(Runnable::run);
        disposers.clear();
        // The pane leaves the scene before the next layout, so the list would never tell its cells to let go.
        cells.forEach(MessageCell::release);
        cells.clear();
        list.setItems(null);
    }

    /** Shown while the built-in simulator is the provider and the chat has no message yet. */
    private WelcomeView welcome(ChatWindowViewModel window, Runnable addProvider) {
        WelcomeView welcome = new WelcomeView(addProvider);
        VBox.setMargin(welcome, new javafx.geometry.Insets(16, 20, 0, 20));
        welcome.bindModelName(Bindings.createStringBinding(
                () -> window.modelNames().of(chat.modelProperty().get()), chat.modelProperty()));
        welcome.visibleProperty()
                .bind(window.offlineProperty().and(chat.hasMessagesProperty().not()));
        welcome.managedProperty().bind(welcome.visibleProperty());
        disposers.add(() -> {
            welcome.unbind();
            welcome.visibleProperty().unbind();
            welcome.managedProperty().unbind();
        });
        return welcome;
    }

    private HBox header(ObservableList<ModelRef> models, ModelNames names) {
        ComboBox<ModelRef> picker = new ComboBox<>(models);
        picker.setId("model-picker");
        LazyTooltip.install(picker, "The model of the next reply");
        picker.setAccessibleText("Model of the next reply");
        picker.setPromptText("No model configured");
        picker.setConverter(new StringConverter<>() {
            @Override
            public String toString(ModelRef model) {
                return names.of(model);
            }

            @Override
            public ModelRef fromString(String text) {
                return models.stream()
                        .filter(m -> names.of(m).equals(text))
                        .findFirst()
                        .orElse(null);
            }
        });
        boolean[] updating = {false};
        ChangeListener<ModelRef> fromSession = (obs, old, now) -> {
            updating[0] = true;
            picker.setValue(now);
            updating[0] = false;
        };
        fromSession.changed(null, null, chat.modelProperty().get());
        chat.modelProperty().addListener(fromSession);
        disposers.add(() -> chat.modelProperty().removeListener(fromSession));
        picker.valueProperty().addListener((obs, old, now) -> {
            if (!updating[0] && now != null) {
                chat.chooseModel(now);
            }
        });
        Label chip = new Label();
        chip.setId("fallback-chip");
        chip.getStyleClass().add("fallback-chip");
        chip.textProperty().bind(chat.fallbackChipProperty());
        chip.visibleProperty().bind(chat.fallbackChipProperty().isNotEmpty());
        chip.managedProperty().bind(chip.visibleProperty());
        LazyTooltip.install(chip, "Your model is unavailable for now; replies come from a fallback model");
        disposers.add(() -> {
            chip.textProperty().unbind();
            chip.visibleProperty().unbind();
        });
        Label modelLabel = new Label("_Model");
        modelLabel.setMnemonicParsing(true);
        modelLabel.setLabelFor(picker);
        HBox header = new HBox(modelLabel, picker, chip);
        header.setAlignment(Pos.CENTER_LEFT);
        header.getStyleClass().add("chat-header");
        return header;
    }

    /**
     * Tells a screen reader what the chat's announcements say (a retry scheduled, a chain's end): JavaFX has no live
     * region, so a text node that takes no space holds the words and notifies the accessibility layer of its change,
     * which screen readers read out where JavaFX supports them (Windows, macOS; JavaFX has no Linux bridge).
     */
    private Label announcer(ChatViewModel chat) {
        Label announcer = new Label();
        announcer.setId("announcer");
        announcer.setAccessibleRole(AccessibleRole.TEXT);
        announcer.setManaged(false);
        announcer.setOpacity(0);
        announcer.setMouseTransparent(true);
        announcer.setFocusTraversable(false);
        ChangeListener<Announcement> said = (obs, old, now) -> {
            if (now != null) {
                announcer.setText(now.text());
                announcer.setAccessibleText(now.text());
                announcer.notifyAccessibleAttributeChanged(AccessibleAttribute.TEXT);
            }
        };
        chat.announcementProperty().addListener(said);
        disposers.add(() -> chat.announcementProperty().removeListener(said));
        return announcer;
    }

    /**
     * A chip in the header while the chat has its own system prompt ("Own system prompt", its text as tooltip); a
     * click opens Chat → System prompt… on it.
     */
    private Hyperlink systemPromptChip(ChatWindowViewModel window) {
        Hyperlink chip = new Hyperlink("Own system prompt");
        chip.setId("system-prompt-chip");
        chip.getStyleClass().addAll("system-prompt-chip", Styles.TEXT_SMALL);
        chip.setOnAction(e -> SystemPromptDialog.edit(getScene().getWindow(), chat, window.defaultSystemPrompt()));
        StringBinding tipText = Bindings.createStringBinding(
                () -> {
                    String prompt = chat.systemPromptProperty().get();
                    return prompt == null
                            ? ""
                            : "This chat's system prompt (Chat → System prompt… to change it):\n"
                                    + (prompt.length() > 400 ? prompt.substring(0, 400) + "…" : prompt);
                },
                chat.systemPromptProperty());
        // What the tooltip will say is the chip's accessible help from the start, as a made tooltip's text would be.
        chip.accessibleHelpProperty().bind(tipText);
        LazyTooltip.install(chip, () -> {
            Tooltip tip = new Tooltip();
            tip.setWrapText(true);
            tip.setMaxWidth(480);
            tip.textProperty().bind(tipText);
            return tip;
        });
        ChangeListener<String> shown = (obs, old, now) -> {
            chip.setVisible(now != null);
            chip.setManaged(now != null);
            chip.setAccessibleText(now == null ? null : "This chat has its own system prompt. Press to change it.");
        };
        shown.changed(null, null, chat.systemPromptProperty().get());
        chat.systemPromptProperty().addListener(shown);
        disposers.add(() -> {
            chat.systemPromptProperty().removeListener(shown);
            chip.accessibleHelpProperty().unbind();
        });
        return chip;
    }

    /**
     * The retry banner joins the pane below {@code announcer} the first time it shows, not with the pane: hidden, its
     * sixteen nodes were styled and laid out in every chat's first frame (the window's too). Made with the pane, its
     * text bound from the start.
     */
    private void bannerWhenFirstShown(VBox bottom, Node announcer, RetryBannerViewModel banner) {
        VBox box = banner(banner);
        Runnable join = () -> {
            if (box.getParent() == null) {
                bottom.getChildren().add(bottom.getChildren().indexOf(announcer) + 1, box);
            }
        };
        ChangeListener<RetryBannerViewModel.State> shown = (obs, old, now) -> {
            if (now != RetryBannerViewModel.State.HIDDEN) {
                join.run();
            }
        };
        shown.changed(null, null, banner.stateProperty().get());
        banner.stateProperty().addListener(shown);
        disposers.add(() -> banner.stateProperty().removeListener(shown));
    }

    private VBox banner(RetryBannerViewModel banner) {
        Label headline = new Label();
        headline.setId("retry-headline");
        headline.getStyleClass().addAll(Styles.TEXT_BOLD, "retry-headline");
        headline.textProperty().bind(banner.headlineProperty());
        headline.setWrapText(true);
        Label summary = new Label();
        summary.getStyleClass().addAll(Styles.TEXT_SMALL, "retry-summary");
        summary.textProperty().bind(banner.summaryProperty());
        summary.setWrapText(true);
        Label error = new Label();
        error.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
        error.textProperty().bind(banner.errorProperty());
        error.setWrapText(true);
        var waiting = Bindings.equal(banner.stateProperty(), RetryBannerViewModel.State.WAITING);
        Button now = new Button("Retry n_ow");
        now.setId("retry-now");
        now.setMnemonicParsing(true);
        LazyTooltip.install(now, () -> new Tooltip("Skip the wait and retry at once"));
        now.setAccessibleHelp("Skips the wait and sends the retry at once");
        now.disableProperty().bind(waiting.not());
        now.setOnAction(e -> chat.retryNow());
        // A long provider error wraps beside the buttons; it must never squeeze them into "…".
        now.setMinWidth(Region.USE_PREF_SIZE);
        Button cancel = new Button("_Cancel Retry");
        cancel.setId("cancel-retry");
        cancel.setMnemonicParsing(true);
        cancel.getStyleClass().add(Styles.DANGER);
        LazyTooltip.install(cancel, () -> new Tooltip("Give up on this reply (Esc)"));
        cancel.setAccessibleHelp("Cancels the pending retry; Escape does the same");
        cancel.disableProperty().bind(banner.cancellableProperty().not());
        cancel.setOnAction(e -> chat.cancelRetry());
        cancel.setMinWidth(Region.USE_PREF_SIZE);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        VBox text = new VBox(headline, summary, error);
        HBox.setHgrow(text, Priority.ALWAYS);
        HBox row = new HBox(text, spacer, now, cancel);
        row.setAlignment(Pos.CENTER_LEFT);
        row.getStyleClass().add("retry-row");
        VBox box = new VBox(row);
        box.setId("retry-banner");
        box.setAccessibleRole(AccessibleRole.TEXT);
        box.accessibleTextProperty()
                .bind(Bindings.concat(
                        "Retry banner: ", banner.headlineProperty(), ". ", banner.summaryProperty(), ". "));
        box.getStyleClass().add("retry-banner");
        box.visibleProperty().bind(Bindings.notEqual(banner.stateProperty(), RetryBannerViewModel.State.HIDDEN));
        box.managedProperty().bind(box.visibleProperty());
        disposers.add(() -> {
            headline.textProperty().unbind();
            summary.textProperty().unbind();
            error.textProperty().unbind();
            now.disableProperty().unbind();
            cancel.disableProperty().unbind();
            box.visibleProperty().unbind();
            box.accessibleTextProperty().unbind();
        });
        return box;
    }

    /**
     * When editing begins, the composer takes the focus, with the caret at the end of the text, and the editing line
     * ({@link #editing}) shows over it. The line joins the pane the first time editing begins in it, not with the
     * pane: hidden, it was styled and laid out in every chat's first frame.
     */
    private void editingLine(VBox bottom, Node composerRow, ComposerViewModel model) {
        HBox line = editing(model);
        Runnable join = () -> {
            if (line.getParent() == null) {
                bottom.getChildren().add(bottom.getChildren().indexOf(composerRow), line);
            }
        };
        if (model.editingProperty().get()) {
            join.run();
        }
        ChangeListener<Boolean> began = (obs, old, now) -> {
            if (now) {
                join.run();
                composer.requestFocus();
                composer.end();
            }
        };
        model.editingProperty().addListener(began);
        disposers.add(() -> model.editingProperty().removeListener(began));
    }

    /** The line over the composer while the last message is being edited: what Send will do, and how to leave. */
    private HBox editing(ComposerViewModel model) {
        Label what =
                new Label("Editing your last message: sending it replaces that message and its reply. Esc cancels.");
        what.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
        what.setWrapText(true);
        what.setMinHeight(Region.USE_PREF_SIZE);
        HBox.setHgrow(what, Priority.ALWAYS);
        Button cancel = new Button("Cancel edit");
        cancel.setId("cancel-edit");
        LazyTooltip.install(cancel, "Leave editing; the composer is emptied (Esc)");
        cancel.getStyleClass().addAll(Styles.SMALL, Styles.FLAT);
        cancel.setOnAction(e -> {
            model.cancelEdit();
            composer.requestFocus();
        });
        HBox line = new HBox(what, cancel);
        line.setId("editing-line");
        line.setAlignment(Pos.CENTER_LEFT);
        line.getStyleClass().add("editing-line");
        line.visibleProperty().bind(model.editingProperty());
        line.managedProperty().bind(model.editingProperty());
        disposers.add(() -> {
            line.visibleProperty().unbind();
            line.managedProperty().unbind();
        });
        return line;
    }

    private HBox composer(ComposerViewModel model) {
        composer.setId("composer");
        composer.setWrapText(true);
        composer.setPrefRowCount(3);
        composer.setPromptText("Message (Enter sends, Shift+Enter new line)");
        composer.setAccessibleText("Message");
        composer.setAccessibleHelp("Enter sends, Shift+Enter starts a new line, Up edits your last message");
        composer.textProperty().bindBidirectional(model.draftProperty());
        composer.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ESCAPE && model.editingProperty().get()) {
                model.cancelEdit();
                e.consume();
                return;
            }
            if (e.getCode() == KeyCode.UP && composer.getText().isEmpty() && model.editLast()) {
                e.consume();
                return;
            }
            if (e.getCode() != KeyCode.ENTER) {
                return;
            }
            e.consume();
            if (e.isShiftDown()) {
                composer.replaceSelection("\n");
            } else {
                model.send();
            }
        });
        HBox.setHgrow(composer, Priority.ALWAYS);
        Button send = new Button("_Send");
        send.setId("send");
        send.setMnemonicParsing(true);
        send.setDefaultButton(false);
        send.getStyleClass().add(Styles.ACCENT);
        LazyTooltip.install(send, "Send (Enter or Ctrl+Enter)");
        send.disableProperty().bind(model.canSendProperty().not());
        send.visibleProperty().bind(model.runningProperty().not());
        send.managedProperty().bind(send.visibleProperty());
        send.setOnAction(e -> {
            model.send();
            composer.requestFocus();
        });
        Button stop = new Button("S_top");
        stop.setId("stop");
        stop.setMnemonicParsing(true);
        stop.getStyleClass().add(Styles.DANGER);
        LazyTooltip.install(stop, "Stop this reply");
        stop.visibleProperty().bind(model.runningProperty());
        stop.managedProperty().bind(stop.visibleProperty());
        stop.setOnAction(e -> model.stop());
        disposers.add(() -> {
            composer.textProperty().unbindBidirectional(model.draftProperty());
            send.disableProperty().unbind();
            send.visibleProperty().unbind();
            stop.visibleProperty().unbind();
        });
        HBox row = new HBox(composer, new VBox(send, stop));
        row.setAlignment(Pos.BOTTOM_LEFT);
        row.getStyleClass().add("composer");
        return row;
    }
}
