package dev.rebound.ui.view;

import atlantafx.base.theme.Styles;
import dev.rebound.ui.model.AssistantItem;
import dev.rebound.ui.model.ChatItem;
import dev.rebound.ui.model.ChatRow;
import dev.rebound.ui.model.ChatViewModel;
import dev.rebound.ui.model.NoticeItem;
import dev.rebound.ui.model.ReplyPart;
import dev.rebound.ui.model.TextSelection;
import dev.rebound.ui.model.UsageText;
import dev.rebound.ui.model.UserItem;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.value.ChangeListener;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.MenuItem;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.ContextMenuEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/**
 * One row of the chat list: a prompt, a notice or one part of a reply. The last part of a streaming reply is followed
 * through the reply's length: changes are coalesced to one Markdown update per FX pulse. A part that is no longer the
 * last is complete and never changes again. The listeners are removed when the cell shows another row.
 */
final class MessageCell extends ListCell<ChatRow> {
    private final ChatViewModel chat;
    private final MarkdownRenderer renderer;
    private final TextSelector selector;
    private Runnable unbind = () -> {};
    /** The message of the row shown (a prompt or a reply), its part, and the node whose text blocks can be selected. */
    private ChatItem message;

    private int part;
    private Node selectable;
    /** Whether some block of this row carries a selection highlight now. */
    private boolean painted;

    private final ChangeListener<TextSelection.Range> selectionListener = (obs, old, now) -> {
        if (concerns(old) || concerns(now)) {
            paintSelection();
        }
    };
    /** A reply part after the first: no gap above it. */
    private static final String CONTINUED = "reply-continued";
    /** A reply part before the last: no gap below it. */
    private static final String CONTINUES = "reply-continues";

    MessageCell(ChatViewModel chat, MarkdownRenderer renderer, TextSelector selector) {
        this.chat = chat;
        this.renderer = renderer;
        this.selector = selector;
        chat.selection().rangeProperty().addListener(selectionListener);
        setPrefWidth(0);
        setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        getStyleClass().add("message-cell");
        // The menu is made when asked for: a ContextMenu is a popup window with a scene of its own, and rows are
        // rebuilt far more often than anyone right-clicks them.
        addEventFilter(ContextMenuEvent.CONTEXT_MENU_REQUESTED, e -> {
            if (getContextMenu() == null && !isEmpty() && getItem() != null) {
                setContextMenu(copyMenu(getItem()));
            }
        });
    }

    @Override
    protected void updateItem(ChatRow item, boolean empty) {
        super.updateItem(item, empty);
        unbind.run();
        unbind = () -> {};
        message = null;
        selectable = null;
        painted = false;
        if (empty || item == null) {
            setGraphic(null);
            setContextMenu(null);
            getStyleClass().removeAll(CONTINUED, CONTINUES);
            return;
        }
        getStyleClass().removeAll(CONTINUED, CONTINUES);
        setGraphic(
                switch (item) {
                    case UserItem user -> user(user);
                    case NoticeItem notice -> notice(notice);
                    case ReplyPart part -> reply(part);
                });
        setContextMenu(null);
        paintSelection();
    }

    /** Lets go of the row shown: its listeners on the view-model go, so the cell (and its list) can be collected. */
    void release() {
        unbind.run();
        unbind = () -> {};
        chat.selection().rangeProperty().removeListener(selectionListener);
        message = null;
        selectable = null;
        setGraphic(null);
        setContextMenu(null);
    }

    /** The message of the row shown, or null (a notice, an empty cell). */
    ChatItem message() {
        return message;
    }

    /** Which part of {@link #message()} the row shows (0 for a prompt). */
    int part() {
        return part;
    }

    /** The selectable text blocks of the row shown, in reading order (none for a notice). */
    List<TextBlock> blocks() {
        return TextBlock.in(selectable);
    }

    /** A prompt's text as the chat shows it: one wrapping flow, selectable like a reply's. */
    static TextFlow promptText(String text) {
        Text run = new Text(text);
        run.getStyleClass().add("user-text-run");
        TextFlow flow = new TextFlow(run);
        flow.getStyleClass().add("user-text");
        return flow;
    }

    private boolean concerns(TextSelection.Range range) {
        return range != null && message != null && range.in(message);
    }

    /** Highlights what the chat's selection covers of this row, and takes the highlight off what it no longer does. */
    private void paintSelection() {
        TextSelection.Range range = chat.selection().range();
        boolean selected = concerns(range) && !range.isEmpty();
        if (!selected && !painted) {
            return;
        }
        painted = false;
        List<TextBlock> blocks = blocks();
        for (int i = 0; i < blocks.size(); i++) {
            TextBlock block = blocks.get(i);
            int[] span = selected ? TextBlock.span(range, part, i, block.length()) : null;
            if (span == null) {
                SelectionHighlight.clear(block.flow());
            } else {
                SelectionHighlight.show(block.flow(), span[0], span[1]);
                painted = true;
            }
        }
    }

    /** Copy for the selection and for the text of a row (a reply as its Markdown source). */
    private ContextMenu copyMenu(ChatRow item) {
        MenuItem copySelection = new MenuItem("Copy _selection");
        copySelection.setOnAction(e -> selector.copy());
        MenuItem copy = new MenuItem("_Copy text");
        copy.setOnAction(e -> {
            ClipboardContent content = new ClipboardContent();
            content.putString(
                    switch (item) {
                        case UserItem user -> user.text();
                        case NoticeItem notice -> notice.text();
                        case ReplyPart part -> part.reply().text().toString();
                    });
            Clipboard.getSystemClipboard().setContent(content);
        });
        ContextMenu menu = new ContextMenu(copySelection, copy);
        menu.setOnShowing(e -> copySelection.setDisable(!chat.selection().hasSelection()));
        return menu;
    }

    private Node user(UserItem item) {
        Label who = new Label("You");
        who.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED, Styles.TEXT_BOLD);
        BooleanBinding offered = Bindings.createBooleanBinding(
                () -> chat.lastPromptProperty().get() == item
                        && chat.canRewriteProperty().get(),
                chat.lastPromptProperty(),
                chat.canRewriteProperty());
        HBox head = new HBox(who);
        head.setAlignment(Pos.CENTER_LEFT);
        // Made only while offered, like Regenerate: a hidden control would still be styled at every rebuild of the row.
        Runnable showEdit = () -> {
            head.getChildren().setAll(who);
            if (offered.get()) {
                Region gap = new Region();
                HBox.setHgrow(gap, Priority.ALWAYS);
                head.getChildren().addAll(gap, editLink());
            }
        };
        showEdit.run();
        ChangeListener<Boolean> offeredListener = (obs, old, now) -> showEdit.run();
        offered.addListener(offeredListener);
        TextFlow text = promptText(item.text());
        message = item;
        part = 0;
        selectable = text;
        VBox box = new VBox(head, text);
        box.getStyleClass().add("message-user");
        unbind = () -> {
            offered.removeListener(offeredListener);
            offered.dispose();
        };
        return box;
    }

    private Hyperlink editLink() {
        Hyperlink edit = new Hyperlink("Edit");
        edit.getStyleClass().addAll(Styles.TEXT_SMALL, "message-action", "edit-prompt");
        LazyTooltip.install(
                edit, "Edit this message and send it again, in place of it and its reply (↑ in an empty composer)");
        edit.setAccessibleText("Edit your last message and send it again");
        edit.setOnAction(e -> chat.composer().editLast());
        return edit;
    }

    private Node notice(NoticeItem item) {
        Label label = wrapping((item.level() == NoticeItem.Level.INFO ? "ℹ " : "⚠ ") + item.text());
        label.getStyleClass()
                .addAll(
                        "notice",
                        "notice-" + item.level().name().toLowerCase(java.util.Locale.ROOT),
                        Styles.TEXT_SMALL);
        return label;
    }

    private Node reply(ReplyPart part) {
        AssistantItem item = part.reply();
        int index = part.index();
        CharSequence text = item.part(index);
        MarkdownView markdown = new MarkdownView(renderer);
        message = item;
        this.part = index;
        selectable = markdown;
        markdown.setOnRendered(this::paintSelection);
        VBox status = new VBox();
        status.getStyleClass().add("reply-status");
        VBox box = new VBox();
        box.getStyleClass().add("message-assistant");
        // The first part carries the model's name and the reasoning line.
        Label model = index == 0 ? new Label() : null;
        ThinkingBox thinking = index == 0 ? new ThinkingBox(item) : null;
        RetryRecordBox record = index == 0 ? new RetryRecordBox(item, chat.recordText()) : null;
        if (index == 0) {
            model.textProperty().bind(item.modelProperty());
            model.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED, Styles.TEXT_BOLD);
            box.getChildren().addAll(model, record, thinking);
        } else {
            getStyleClass().add(CONTINUED);
        }
        box.getChildren().addAll(markdown, status);

        BooleanBinding offered = Bindings.createBooleanBinding(
                () -> chat.lastReplyProperty().get() == item
                        && chat.canRewriteProperty().get(),
                chat.lastReplyProperty(),
                chat.canRewriteProperty());
        boolean[] last = {part.last()};
        PulseCoalescer render = new PulseCoalescer(() -> {
            if (last[0]) {
                markdown.advance(text);
            }
        });
        ChangeListener<Number> lengthListener = (obs, old, now) -> {
            if (!last[0]) {
                return;
            }
            if (now.intValue() < old.intValue()) {
                markdown.restart();
            }
            if ((old.intValue() == 0) != (now.intValue() == 0)) {
                // "Waiting for the reply…" goes with the first character (and comes back when a retry restarts).
                showStatus(item, status, offered.get());
            }
            render.request();
        };
        ChangeListener<Object> statusListener = (obs, old, now) -> {
            if (!last[0]) {
                return;
            }
            if (item.status() != AssistantItem.Status.STREAMING) {
                // The stream ended (or paused for a retry): render its end exactly, without waiting for a catch-up.
                markdown.flush(text);
            }
            showStatus(item, status, offered.get());
        };
        ChangeListener<Number> partsListener = (obs, old, now) -> {
            if (index >= now.intValue()) {
                // A retry restarted the reply: this part is gone, and its row goes with the next layout.
                last[0] = false;
                render.cancel();
                status.getChildren().clear();
                return;
            }
            boolean nowLast = index == now.intValue() - 1;
            if (last[0] && !nowLast) {
                // The reply went on in a new part: this one is complete.
                markdown.flush(text);
                status.getChildren().clear();
            }
            last[0] = nowLast;
            if (nowLast) {
                getStyleClass().remove(CONTINUES);
            } else if (!getStyleClass().contains(CONTINUES)) {
                getStyleClass().add(CONTINUES);
            }
        };
        if (last[0] && item.status() == AssistantItem.Status.STREAMING) {
            markdown.advance(text);
        } else {
            markdown.showAll(text);
        }
        if (last[0]) {
            showStatus(item, status, offered.get());
        } else {
            getStyleClass().add(CONTINUES);
        }
        item.lengthProperty().addListener(lengthListener);
        item.statusProperty().addListener(statusListener);
        // A failed reply can fail again with another text (the chain's final message) without changing status.
        item.errorProperty().addListener(statusListener);
        item.partCountProperty().addListener(partsListener);
        // "Waiting for the reply…" becomes "Thinking…" when reasoning arrives first.
        ChangeListener<Number> thinkingListener = (obs, old, now) -> {
            if (last[0] && (old.intValue() == 0) != (now.intValue() == 0)) {
                showStatus(item, status, offered.get());
            }
        };
        item.thinkingLengthProperty().addListener(thinkingListener);
        ChangeListener<Boolean> offeredListener = (obs, old, now) -> {
            if (last[0]) {
                showStatus(item, status, now);
            }
        };
        offered.addListener(offeredListener);
        unbind = () -> {
            render.cancel();
            markdown.cancelCatchUp();
            item.lengthProperty().removeListener(lengthListener);
            item.statusProperty().removeListener(statusListener);
            item.errorProperty().removeListener(statusListener);
            item.partCountProperty().removeListener(partsListener);
            item.thinkingLengthProperty().removeListener(thinkingListener);
            offered.removeListener(offeredListener);
            offered.dispose();
            if (index == 0) {
                model.textProperty().unbind();
                thinking.release();
                record.release();
            }
        };
        return box;
    }

    /**
     * The line under the reply for its status; {@code regenerate}: whether it offers Regenerate (it is the chat's last
     * reply and no turn runs). The link is made only where offered: a row is rebuilt whenever the list measures or
     * reuses it, and a hidden control would still be styled each time.
     */
    private void showStatus(AssistantItem item, VBox status, boolean regenerate) {
        status.getChildren().clear();
        String error = item.errorProperty().get();
        switch (item.status()) {
            case STREAMING -> {
                if (item.text().isEmpty()) {
                    status.getChildren().add(muted(item.thinking().isEmpty() ? "Waiting for the reply…" : "Thinking…"));
                }
            }
            case RETRYING -> status.getChildren().add(muted("This attempt failed; a retry is scheduled (see below)."));
            case STOPPED -> {
                status.getChildren().add(muted(error == null ? "Stopped." : "Stopped: " + error));
                if (regenerate) {
                    status.getChildren().add(regenerateLink());
                }
            }
            case FAILED, CANCELLED -> {
                Label message = wrapping(error == null ? "The reply failed." : error);
                // A cancel is the user's own choice, not an error: it is shown in the neutral style.
                message.getStyleClass()
                        .addAll(
                                item.status() == AssistantItem.Status.CANCELLED
                                        ? List.of("reply-cancelled", Styles.TEXT_MUTED)
                                        : List.of("reply-error", Styles.DANGER));
                Button retry = new Button("Retry");
                retry.getStyleClass().add(Styles.SMALL);
                LazyTooltip.install(retry, "Send the same prompt again");
                retry.disableProperty().bind(chat.composer().runningProperty());
                retry.setOnAction(e -> chat.retry(item));
                status.getChildren().add(message);
                String detail = item.detailProperty().get();
                if (detail != null && item.status() == AssistantItem.Status.CANCELLED) {
                    status.getChildren().add(muted("Last error: " + detail));
                }
                status.getChildren().add(retry);
            }
            case DONE -> {
                HBox footer = new HBox();
                footer.getStyleClass().add("reply-footer");
                footer.setAlignment(Pos.CENTER_LEFT);
                String usage = UsageText.of(item.usageProperty().get());
                if (!usage.isEmpty()) {
                    Label tokens = muted(usage);
                    tokens.getStyleClass().add("reply-usage");
                    footer.getChildren().add(tokens);
                }
                if (regenerate) {
                    footer.getChildren().add(regenerateLink());
                }
                if (!footer.getChildren().isEmpty()) {
                    status.getChildren().add(footer);
                }
            }
        }
    }

    private Hyperlink regenerateLink() {
        Hyperlink regenerate = new Hyperlink("Regenerate");
        regenerate.getStyleClass().addAll(Styles.TEXT_SMALL, "message-action", "regenerate-reply");
        LazyTooltip.install(regenerate, "Send the same message again for a new reply, in place of this one (Ctrl+R)");
        regenerate.setAccessibleText("Regenerate this reply");
        regenerate.setOnAction(e -> chat.regenerate());
        return regenerate;
    }

    private static Label muted(String text) {
        Label label = wrapping(text);
        label.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
        return label;
    }

    /** A label that wraps instead of ending in an ellipsis: it may not be made shorter than its wrapped text. */
    private static Label wrapping(String text) {
        Label label = new Label(text);
        label.setWrapText(true);
        label.setMinHeight(Region.USE_PREF_SIZE);
        return label;
    }
}
