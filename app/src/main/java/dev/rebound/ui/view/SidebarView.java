package dev.rebound.ui.view;

import atlantafx.base.theme.Styles;
import dev.rebound.history.SessionCatalogue;
import dev.rebound.history.SessionSummary;
import dev.rebound.ui.model.ChatViewModel;
import dev.rebound.ui.model.ChatWindowViewModel;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.Optional;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextInputDialog;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The list of saved chats: open one, start a new one, rename, delete (with confirmation). */
final class SidebarView extends VBox {
    private final ChatWindowViewModel window;
    private final ListView<SessionSummary> list = new ListView<>();

    SidebarView(ChatWindowViewModel window, ZoneId zone) {
        this.window = window;
        getStyleClass().add("sidebar");
        DateTimeFormatter when =
                DateTimeFormatter.ofLocalizedDateTime(FormatStyle.SHORT).withZone(zone);
        Button newChat = new Button("_New chat");
        newChat.setId("new-chat");
        newChat.setMnemonicParsing(true);
        newChat.setMaxWidth(Double.MAX_VALUE);
        newChat.setTooltip(new Tooltip("Start a new chat (Ctrl+N)"));
        newChat.setOnAction(e -> window.newChat());
        list.setId("sessions");
        list.setItems(window.sidebar().sessions());
        list.setPlaceholder(new Label("No saved chats yet"));
        list.setCellFactory(v -> new ListCell<>() {
            {
                setPrefWidth(0);
            }

            @Override
            protected void updateItem(SessionSummary item, boolean empty) {
                super.updateItem(item, empty);
                if (empty || item == null) {
                    setGraphic(null);
                    setText(null);
                    return;
                }
                Label title = new Label(item.displayTitle());
                title.setTooltip(new Tooltip(item.displayTitle()));
                title.getStyleClass().add("session-title");
                Label date = new Label(when.format(Instant.ofEpochMilli(item.lastActivity())));
                date.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
                setGraphic(new VBox(title, date));
                setText(null);
            }
        });
        list.getSelectionModel().selectedItemProperty().addListener((obs, old, now) -> {
            ChatViewModel shown = window.current();
            if (now != null && (shown == null || !shown.sessionId().equals(now.id()))) {
                window.open(now);
            }
        });
        window.currentProperty().addListener((obs, old, now) -> selectCurrent());
        window.sidebar().sessions().addListener((javafx.collections.ListChangeListener<SessionSummary>)
                c -> selectCurrent());
        MenuItem rename = new MenuItem("_Rename…");
        rename.setOnAction(e -> selected().ifPresent(this::rename));
        MenuItem delete = new MenuItem("_Delete…");
        delete.setOnAction(e -> selected().ifPresent(this::delete));
        list.setContextMenu(new ContextMenu(rename, delete));
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
        getChildren().addAll(newChat, list, problem);
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
