package dev.rebound.ui.view;

import atlantafx.base.theme.Styles;
import dev.rebound.history.ChatSearch;
import dev.rebound.history.SessionCatalogue;
import dev.rebound.history.SessionSummary;
import dev.rebound.ui.model.ChatSearchViewModel;
import dev.rebound.ui.model.ChatViewModel;
import dev.rebound.ui.model.ChatWindowViewModel;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.TextInputDialog;
import javafx.scene.control.Tooltip;
import javafx.scene.input.ContextMenuEvent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/**
 * The list of saved chats: open one, start a new one, rename, delete (with confirmation), export; above it the search
 * across chats, whose hits replace the list while a query is typed.
 */
final class SidebarView extends VBox {
    private final ChatWindowViewModel window;
    private final ListView<SessionSummary> list = new ListView<>();
    private final TextField searchField = new TextField();
    private final ListView<ChatSearch.Hit> hits = new ListView<>();

    /** @param export exports a chat as Markdown (the row's context menu) */
    SidebarView(ChatWindowViewModel window, ZoneId zone, Consumer<SessionSummary> export) {
        this.window = window;
        getStyleClass().add("sidebar");
        DateTimeFormatter when =
                DateTimeFormatter.ofLocalizedDateTime(FormatStyle.SHORT).withZone(zone);
        Button newChat = new Button("_New chat");
        newChat.setId("new-chat");
        newChat.setMnemonicParsing(true);
        newChat.setMaxWidth(Double.MAX_VALUE);
        LazyTooltip.install(newChat, "Start a new chat (Ctrl+N)");
        newChat.setOnAction(e -> window.newChat());
        list.setId("sessions");
        list.setItems(window.sidebar().sessions());
        list.setPlaceholder(new Label("No saved chats yet"));
        list.setCellFactory(v -> new SessionCell(when));
        list.getSelectionModel().selectedItemProperty().addListener((obs, old, now) -> {
            ChatViewModel shown = window.current();
            if (now != null && (shown == null || !shown.sessionId().equals(now.id()))) {
                window.open(now);
            }
        });
        window.currentProperty().addListener((obs, old, now) -> selectCurrent());
        window.sidebar().sessions().addListener((javafx.collections.ListChangeListener<SessionSummary>)
                c -> selectCurrent());
        // Made when first asked for (a right click, the menu key), not with the sidebar: making it was ~18 ms of the
        // FX thread before the first frame in the profile (docs/startup.md, "Third pass"). A filter runs before the
        // list's own handler, which shows the menu it then finds.
        list.addEventFilter(ContextMenuEvent.CONTEXT_MENU_REQUESTED, e -> {
            if (list.getContextMenu() == null) {
                list.setContextMenu(rowMenu(export));
            }
        });
        list.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.F2) {
                selected().ifPresent(this::rename);
            } else if (e.getCode() == KeyCode.DELETE) {
                selected().ifPresent(this::delete);
            }
        });
        VBox.setVgrow(list, Priority.ALWAYS);
        Label problem = new Label();
        problem.setWrapText(true);
        problem.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.DANGER);
        problem.textProperty().bind(window.sidebar().problemProperty());
        problem.visibleProperty().bind(problem.textProperty().isNotEmpty());
        problem.managedProperty().bind(problem.visibleProperty());
        ChatSearchViewModel search = window.sidebar().search();
        Label summary = buildSearch(search);
        // The hits' list joins the sidebar at the first search (buildSearch): a list view's skin, its virtual flow and
        // scroll bars, is among the costliest controls to style, and nobody searches in the window's first frame.
        getChildren().addAll(searchField, newChat, summary, list, problem);
    }

    /** The chat list's context menu: rename, delete or export the selected chat. */
    private ContextMenu rowMenu(Consumer<SessionSummary> export) {
        MenuItem rename = new MenuItem("_Rename…");
        rename.setOnAction(e -> selected().ifPresent(this::rename));
        MenuItem delete = new MenuItem("_Delete…");
        delete.setOnAction(e -> selected().ifPresent(this::delete));
        MenuItem exportItem = new MenuItem("_Export as Markdown…");
        exportItem.setOnAction(e -> selected().ifPresent(export));
        return new ContextMenu(rename, delete, exportItem);
    }

    /** Puts the focus in the search field, its text selected (Ctrl+K). */
    void focusSearch() {
        searchField.requestFocus();
        searchField.selectAll();
        window.sidebar().search().prepare();
    }

    private Label buildSearch(ChatSearchViewModel search) {
        searchField.setId("chat-search");
        searchField.setPromptText("Search chats (Ctrl+K)");
        searchField.setAccessibleText("Search chats");
        searchField.textProperty().bindBidirectional(search.queryProperty());
        // The index is read when the user turns to the field (a click, Ctrl+K, a key typed in it), not when the
        // field merely gets the focus: at start the focus passes through it, and an index nobody asked for holds
        // about as much memory as the chat files (docs/benchmarks.md, "The merged second pass").
        searchField.addEventFilter(MouseEvent.MOUSE_PRESSED, e -> search.prepare());
        searchField.addEventFilter(KeyEvent.KEY_TYPED, e -> search.prepare());
        searchField.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ESCAPE && search.active()) {
                search.clear();
                e.consume();
            } else if ((e.getCode() == KeyCode.ENTER || e.getCode() == KeyCode.DOWN)
                    && !hits.getItems().isEmpty()) {
                if (hits.getSelectionModel().isEmpty()) {
                    hits.getSelectionModel().selectFirst();
                }
                if (e.getCode() == KeyCode.DOWN) {
                    hits.requestFocus();
                }
                e.consume();
            }
        });
        hits.setId("search-hits");
        hits.setItems(search.hits());
        hits.setPlaceholder(new Label(""));
        hits.setCellFactory(v -> new HitCell());
        hits.getSelectionModel().selectedItemProperty().addListener((obs, old, now) -> {
            ChatViewModel shown = window.current();
            if (now != null && (shown == null || !shown.sessionId().equals(now.id()))) {
                window.open(now.summary());
            }
        });
        hits.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ESCAPE && search.active()) {
                search.clear();
                searchField.requestFocus();
                e.consume();
            }
        });
        search.hits().addListener((javafx.collections.ListChangeListener<ChatSearch.Hit>) c -> selectCurrentHit());
        VBox.setVgrow(hits, Priority.ALWAYS);
        Label summary = new Label();
        summary.setId("search-summary");
        summary.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
        summary.textProperty().bind(search.summaryProperty());
        Runnable mode = () -> {
            boolean searching = search.active();
            list.setVisible(!searching);
            list.setManaged(!searching);
            if (searching && hits.getParent() == null) {
                getChildren().add(getChildren().indexOf(list) + 1, hits);
            }
            hits.setVisible(searching);
            hits.setManaged(searching);
            summary.setVisible(searching);
            summary.setManaged(searching);
            if (!searching) {
                selectCurrent();
            }
        };
        search.stateProperty().addListener((obs, old, now) -> mode.run());
        mode.run();
        return summary;
    }

    private void selectCurrentHit() {
        ChatViewModel shown = window.current();
        if (shown == null) {
            return;
        }
        for (ChatSearch.Hit hit : hits.getItems()) {
            if (hit.id().equals(shown.sessionId())) {
                hits.getSelectionModel().select(hit);
                return;
            }
        }
    }

    /**
     * A saved chat's row: its title, and below it the time of its last activity, in nodes made once per cell and
     * given the row's chat at each update. The list measures every row through a cell of its own as it lays out; when
     * each update made a box of two labels anew, each was styled again, before the window's first frame for a
     * returning user's rows (docs/startup.md).
     */
    private static final class SessionCell extends ListCell<SessionSummary> {
        private final Label title = new Label();
        private final Text date = new Text();
        private final VBox box = new VBox(title, date);
        private final DateTimeFormatter when;

        SessionCell(DateTimeFormatter when) {
            this.when = when;
            box.getStyleClass().add("session-row");
            setPrefWidth(0);
            title.getStyleClass().add("session-title");
            date.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
            // The whole title when the row cuts it short; made on the first hover, following the row's chat.
            title.accessibleHelpProperty().bind(title.textProperty());
            LazyTooltip.install(title, () -> {
                Tooltip tip = new Tooltip();
                tip.textProperty().bind(title.textProperty());
                return tip;
            });
        }

        @Override
        protected void updateItem(SessionSummary item, boolean empty) {
            super.updateItem(item, empty);
            setText(null);
            if (empty || item == null) {
                setGraphic(null);
                return;
            }
            title.setText(item.displayTitle());
            date.setText(when.format(Instant.ofEpochMilli(item.lastActivity())));
            setGraphic(box);
        }
    }

    /** A hit: the title and, when a message matched, a snippet, the query's words in bold. */
    private static final class HitCell extends ListCell<ChatSearch.Hit> {
        HitCell() {
            setPrefWidth(0);
        }

        @Override
        protected void updateItem(ChatSearch.Hit hit, boolean empty) {
            super.updateItem(hit, empty);
            setText(null);
            if (empty || hit == null) {
                setGraphic(null);
                return;
            }
            TextFlow title = marked(hit.displayTitle(), hit.titleMarks(), null);
            title.getStyleClass().add("search-title");
            VBox box = new VBox(title);
            box.getStyleClass().add("search-hit");
            ChatSearch.Snippet snippet = hit.snippet();
            if (snippet != null) {
                TextFlow text = marked(
                        snippet.text(), snippet.marks(), snippet.role() == ChatSearch.Role.USER ? "You: " : "Reply: ");
                text.getStyleClass().add("search-snippet");
                box.getChildren().add(text);
            }
            setGraphic(box);
        }

        private static TextFlow marked(String text, List<ChatSearch.Span> marks, String lead) {
            TextFlow flow = new TextFlow();
            if (lead != null) {
                flow.getChildren().add(piece(lead, "search-lead"));
            }
            int at = 0;
            for (ChatSearch.Span mark : marks) {
                if (mark.start() > at) {
                    flow.getChildren().add(piece(text.substring(at, mark.start()), "search-text"));
                }
                flow.getChildren().add(piece(text.substring(mark.start(), mark.end()), "search-mark"));
                at = mark.end();
            }
            if (at < text.length()) {
                flow.getChildren().add(piece(text.substring(at), "search-text"));
            }
            return flow;
        }

        private static Text piece(String text, String style) {
            Text node = new Text(text);
            node.getStyleClass().add(style);
            return node;
        }
    }

    private Optional<SessionSummary> selected() {
        return Optional.ofNullable(list.getSelectionModel().getSelectedItem());
    }

    private void selectCurrent() {
        ChatViewModel shown = window.current();
        if (shown == null) {
            return;
        }
        for (SessionSummary s : list.getItems()) {
            if (s.id().equals(shown.sessionId())) {
                if (list.getSelectionModel().getSelectedItem() != s) {
                    list.getSelectionModel().select(s);
                }
                return;
            }
        }
    }

    private void rename(SessionSummary summary) {
        TextInputDialog dialog = new TextInputDialog(summary.displayTitle());
        dialog.initOwner(getScene().getWindow());
        dialog.setTitle("Rename chat");
        dialog.setHeaderText("A new name for this chat");
        dialog.getEditor()
                .textProperty()
                .addListener((obs, old, now) -> dialog.getDialogPane()
                        .lookupButton(ButtonType.OK)
                        .setDisable(now.isBlank() || now.strip().length() > SessionCatalogue.MAX_TITLE_LENGTH));
        dialog.showAndWait().filter(t -> !t.isBlank()).ifPresent(t -> window.rename(summary, t));
    }

    private void delete(SessionSummary summary) {
        Alert confirm = new Alert(
                Alert.AlertType.CONFIRMATION,
                "\"" + summary.displayTitle() + "\" will be moved " + "to the trash.",
                ButtonType.CANCEL,
                ButtonType.OK);
        confirm.initOwner(getScene().getWindow());
        confirm.setTitle("Delete chat");
        confirm.setHeaderText("Delete this chat?");
        ((Button) confirm.getDialogPane().lookupButton(ButtonType.OK)).setText("Delete");
        ((Button) confirm.getDialogPane().lookupButton(ButtonType.CANCEL)).setDefaultButton(true);
        ((Button) confirm.getDialogPane().lookupButton(ButtonType.OK)).setDefaultButton(false);
        confirm.showAndWait().filter(b -> b == ButtonType.OK).ifPresent(b -> window.delete(summary));
    }
}
