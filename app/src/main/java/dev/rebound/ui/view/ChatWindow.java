package dev.rebound.ui.view;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import dev.rebound.ui.model.ChatExportViewModel;
import dev.rebound.ui.model.ChatViewModel;
import dev.rebound.ui.model.ChatWindowViewModel;
import dev.rebound.ui.model.ZoomModel;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.animation.PauseTransition;
import javafx.application.Application;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextInputControl;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.StackPane;
import javafx.stage.Screen;
import javafx.util.Duration;

/**
 * The chat window: menu bar, sidebar and the chat shown. Esc cancels a pending retry wherever the focus is (an event
 * filter on the scene asks the chat, which asks the live session). The "Simulate failures" menu (Alt+I) scripts the
 * built-in simulator; the welcome view shows in an empty chat while it is the provider.
 */
public final class ChatWindow {
    private static final Duration ZOOM_BADGE_TIME = Duration.millis(1200);
    private static final double ZOOM_BADGE_MARGIN = 10;
    private static final String ZOOM_STYLE = "zoom-";

    private final ChatWindowViewModel window;
    private final MarkdownRenderer renderer;
    private final MenuBar menuBar = new MenuBar();
    private final Menu simulate;
    private final StackPane chatHolder = new StackPane();
    private final ZoomModel zoom = new ZoomModel(ZoomModel.ACTUAL);
    /** Says the new zoom level for a moment after the user changed it. */
    private final Label zoomBadge = new Label();

    private final PauseTransition zoomBadgeShown = new PauseTransition(ZOOM_BADGE_TIME);
    private final BorderPane root;
    private final Executor fx;
    /** Made by {@link #scene()}, on the FX thread; the nodes before it may be made on another thread. */
    private Scene scene;

    private final SettingsOpener openSettings;
    private final SidebarView sidebar;
    private ExportChooser exportChooser = ExportChooser.saveDialog();
    private ChatPane shown;

    /**
     * Makes the window's nodes. Like any nodes not yet in a shown window, they may be made on a thread other than the
     * FX thread (the desktop's start makes them on the main thread while the FX thread parses the theme), provided
     * {@code fx} holds its tasks until the window is handed to the FX thread; {@link #scene()} is then called there.
     *
     * @param fx runs work on the FX thread (after the window is shown, when the nodes were made elsewhere)
     * @param openSettings opens the settings window over this one
     * @param darkTheme whether to start dark
     * @param themeChanged told when the user switches the theme (to remember it)
     */
    public ChatWindow(
            ChatWindowViewModel window,
            Executor fx,
            LinkOpener links,
            ZoneId zone,
            SettingsOpener openSettings,
            boolean darkTheme,
            Consumer<Boolean> themeChanged) {
        this.window = window;
        this.fx = fx;
        this.renderer = new MarkdownRenderer(links);
        this.openSettings = openSettings;
        this.simulate = SimulatorMenu.build(window.simulatorMenu());
        applyTheme(darkTheme);
        this.sidebar =
                new SidebarView(window, zone, summary -> export(window.export().requestFor(summary)));
        buildMenus(darkTheme, themeChanged);
        menuBar.getMenus().add(menuBar.getMenus().indexOf(simulate), chatMenu());
        SplitPane split = new SplitPane(sidebar, zoomable());
        split.setDividerPositions(0.24);
        SplitPane.setResizableWithParent(split.getItems().getFirst(), false);
        root = new BorderPane(split);
        root.setTop(menuBar);
        root.getStyleClass().add("rebound-root");
        window.currentProperty().addListener((obs, old, now) -> show(now));
        window.stateProperty().addListener((obs, old, now) -> show(window.current()));
        show(window.current());
    }

    /** The window's scene, made on the first call, which must be on the FX thread. */
    public Scene scene() {
        if (scene != null) {
            return scene;
        }
        Rectangle2D screen = Screen.getPrimary().getVisualBounds();
        scene = new Scene(root, Math.min(1100, screen.getWidth() * 0.9), Math.min(760, screen.getHeight() * 0.9));
        scene.getStylesheets()
                .add(Objects.requireNonNull(ChatWindow.class.getResource("rebound.css"), "rebound.css")
                        .toExternalForm());
        zoomKeys();
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            ChatViewModel chat = window.current();
            if (e.getCode() == KeyCode.ESCAPE && chat != null && chat.cancelRetry()) {
                e.consume();
            }
        });
        scene.windowProperty().addListener((obs, old, stage) -> {
            if (stage != null) {
                stage.focusedProperty().addListener((o, was, focused) -> {
                    if (focused && shown != null && !(scene.getFocusOwner() instanceof TextInputControl)) {
                        shown.focusComposer();
                    }
                });
            }
        });
        return scene;
    }

    /** The chat's zoom level (View → Zoom in / Zoom out / Actual size); the host restores and remembers it. */
    public ZoomModel zoom() {
        return zoom;
    }

    /** The window's menu bar, for menus other features add. */
    public MenuBar menuBar() {
        return menuBar;
    }

    /** Replaces the save dialog that asks where an export goes (tests answer it without a native dialog). */
    public void setExportChooser(ExportChooser chooser) {
        this.exportChooser = Objects.requireNonNull(chooser, "chooser");
    }

    /** Asks where the chat goes, then exports it in the background; a failure is explained in a dialog. */
    private void export(ChatExportViewModel.Request request) {
        ChatExportViewModel export = window.export();
        exportChooser
                .choose(scene.getWindow(), export.fileName(request), export.folder())
                .ifPresent(target -> export.export(request, target, outcome -> {
                    if (!outcome.written()) {
                        Alert alert = new Alert(Alert.AlertType.ERROR, outcome.problem(), ButtonType.OK);
                        alert.initOwner(scene.getWindow());
                        alert.setTitle("Export chat");
                        alert.setHeaderText("“" + request.displayTitle() + "” could not be exported");
                        alert.getDialogPane().setId("export-failure");
                        alert.show();
                    }
                }));
    }

    /** Releases the chat shown. */
    public void dispose() {
        if (shown != null) {
            shown.dispose();
            shown = null;
        }
    }

    /**
     * Shows {@code chat}'s pane, or the spinner or the problem when there is none. Called for a change of chat and
     * of the window's state; a state change with the same chat shown keeps its pane (opening the first chat sets
     * both, and the pane would otherwise be built twice on the way to the first frame).
     */
    private void show(ChatViewModel chat) {
        if (chat != null && shown != null && shown.chat() == chat) {
            return;
        }
        dispose();
        if (chat != null) {
            shown = new ChatPane(
                    chat, window, renderer, () -> openSettings.open(scene.getWindow(), SettingsTab.PROVIDERS));
            chatHolder.getChildren().setAll(shown);
            shown.focusComposer();
            fx.execute(() -> {
                if (shown != null) {
                    shown.focusComposer();
                }
            });
        } else if (window.stateProperty().get() == ChatWindowViewModel.State.FAILED) {
            Label problem = new Label(window.problemProperty().get());
            problem.setWrapText(true);
            problem.getStyleClass().add("window-problem");
            chatHolder.getChildren().setAll(problem);
        } else {
            chatHolder.getChildren().setAll(new ProgressIndicator());
        }
    }

    private void buildMenus(boolean darkTheme, Consumer<Boolean> themeChanged) {
        MenuItem newChat = new MenuItem("_New chat");
        newChat.setAccelerator(KeyCombination.keyCombination("Shortcut+N"));
        newChat.setOnAction(e -> window.newChat());
        MenuItem settings = new MenuItem("_Settings…");
        settings.setAccelerator(KeyCombination.keyCombination("Shortcut+COMMA"));
        settings.setOnAction(e -> openSettings.open(scene.getWindow(), SettingsTab.RETRY));
        MenuItem search = new MenuItem("Searc_h chats…");
        search.setAccelerator(KeyCombination.keyCombination("Shortcut+K"));
        search.setOnAction(e -> sidebar.focusSearch());
        MenuItem exportChat = new MenuItem("_Export chat as Markdown…");
        exportChat.setId("export-chat");
        exportChat.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+E"));
        exportChat.setOnAction(e -> window.export().requestFor(window.current()).ifPresent(this::export));
        exportChat.disableProperty().bind(window.currentProperty().isNull());
        MenuItem quit = new MenuItem("_Quit");
        quit.setAccelerator(KeyCombination.keyCombination("Shortcut+Q"));
        quit.setOnAction(e -> scene.getWindow().hide());
        Menu file = new Menu(
                "_File",
                null,
                newChat,
                search,
                exportChat,
                new SeparatorMenuItem(),
                settings,
                new SeparatorMenuItem(),
                quit);
        CheckMenuItem dark = new CheckMenuItem("_Dark theme");
        dark.setSelected(darkTheme);
        dark.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+D"));
        dark.selectedProperty().addListener((obs, old, now) -> {
            applyTheme(now);
            themeChanged.accept(now);
        });
        Menu view = new Menu("_View", null, dark, new SeparatorMenuItem());
        view.getItems().addAll(zoomItems());
        menuBar.getMenus().addAll(file, view, simulate);
    }

    /**
     * The Chat menu: Regenerate the last reply (Ctrl+R), Edit the last message (Ctrl+E; ↑ in an empty composer
     * too), and this chat's System prompt. Both act on the chat shown and do nothing while a turn runs; the items are disabled then while the menu
     * is open (an accelerator stays live and is checked when pressed).
     */
    private Menu chatMenu() {
        MenuItem regenerate = new MenuItem("_Regenerate last reply");
        regenerate.setAccelerator(KeyCombination.keyCombination("Shortcut+R"));
        regenerate.setOnAction(e -> {
            ChatViewModel chat = window.current();
            if (chat != null) {
                chat.regenerate();
            }
        });
        MenuItem edit = new MenuItem("_Edit last message");
        edit.setAccelerator(KeyCombination.keyCombination("Shortcut+E"));
        edit.setOnAction(e -> {
            ChatViewModel chat = window.current();
            if (chat != null) {
                chat.composer().editLast();
            }
        });
        MenuItem systemPrompt = new MenuItem("System _prompt…");
        systemPrompt.setOnAction(e -> {
            ChatViewModel chat = window.current();
            if (chat != null) {
                SystemPromptDialog.edit(scene.getWindow(), chat, window.defaultSystemPrompt());
            }
        });
        Menu menu = new Menu("C_hat", null, regenerate, edit, new SeparatorMenuItem(), systemPrompt);
        menu.setOnShowing(e -> {
            ChatViewModel chat = window.current();
            boolean offered = chat != null && chat.canRewriteProperty().get();
            regenerate.setDisable(!offered);
            edit.setDisable(!offered);
        });
        menu.setOnHidden(e -> {
            regenerate.setDisable(false);
            edit.setDisable(false);
        });
        return menu;
    }

    /**
     * The chat area (everything right of the sidebar): its font size follows the zoom level, and every size in rebound.css
     * is in em, so the messages, code, tables, the reasoning box, the banner and the composer all follow. Over it, the
     * badge that says a new level.
     */
    private StackPane zoomable() {
        zoomBadge.setId("zoom-badge");
        zoomBadge.getStyleClass().add("zoom-badge");
        zoomBadge.setMouseTransparent(true);
        zoomBadge.setVisible(false);
        StackPane.setAlignment(zoomBadge, Pos.TOP_CENTER);
        StackPane.setMargin(zoomBadge, new Insets(ZOOM_BADGE_MARGIN));
        zoomBadgeShown.setOnFinished(e -> zoomBadge.setVisible(false));
        zoom.percentProperty().addListener((obs, old, now) -> applyZoom());
        applyZoom();
        return new StackPane(chatHolder, zoomBadge);
    }

    /**
     * Sets the chat area's style class for the level ({@code zoom-125}: {@code -fx-font-size: 1.25em} in rebound.css),
     * so the sizes stay in the stylesheet. At actual size there is none: a font rule on an ancestor makes every text
     * node below resolve its font through it, which the streaming benchmark measured as a cost on each frame.
     */
    private void applyZoom() {
        chatHolder.getStyleClass().removeIf(style -> style.startsWith(ZOOM_STYLE));
        if (zoom.percent() != ZoomModel.ACTUAL) {
            chatHolder.getStyleClass().add(ZOOM_STYLE + zoom.percent());
        }
        if (shown != null) {
            shown.zoomed();
        }
    }

    /** Zoom in, Zoom out and Actual size, with their accelerators; the level shows in Actual size's text. */
    private List<MenuItem> zoomItems() {
        MenuItem in = new MenuItem("Zoom _in");
        in.setId("zoom-in");
        in.setAccelerator(new KeyCodeCombination(KeyCode.EQUALS, KeyCombination.SHORTCUT_DOWN));
        in.setOnAction(e -> zoomed(zoom::zoomIn));
        in.disableProperty().bind(zoom.canZoomInProperty().not());
        MenuItem out = new MenuItem("Zoom _out");
        out.setId("zoom-out");
        out.setAccelerator(new KeyCodeCombination(KeyCode.MINUS, KeyCombination.SHORTCUT_DOWN));
        out.setOnAction(e -> zoomed(zoom::zoomOut));
        out.disableProperty().bind(zoom.canZoomOutProperty().not());
        MenuItem actual = new MenuItem();
        actual.setId("zoom-actual");
        actual.setMnemonicParsing(true);
        actual.textProperty()
                .bind(Bindings.createStringBinding(
                        () -> zoom.percent() == ZoomModel.ACTUAL
                                ? "_Actual size"
                                : "_Actual size (now " + zoom.percent() + " %)",
                        zoom.percentProperty()));
        actual.setAccelerator(new KeyCodeCombination(KeyCode.DIGIT0, KeyCombination.SHORTCUT_DOWN));
        actual.setOnAction(e -> zoomed(zoom::reset));
        actual.disableProperty().bind(zoom.percentProperty().isEqualTo(ZoomModel.ACTUAL));
        return List.of(in, out, actual);
    }

    /**
     * The other keys a browser zooms with: Ctrl++ is Ctrl+Shift+= on most layouts and a key of its own on others,
     * Ctrl+Shift+- is Ctrl+_, and the keypad's +, - and 0.
     */
    private void zoomKeys() {
        Map<KeyCombination, Runnable> keys = scene.getAccelerators();
        keys.put(
                new KeyCodeCombination(KeyCode.EQUALS, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN),
                () -> zoomed(zoom::zoomIn));
        keys.put(
                new KeyCodeCombination(KeyCode.PLUS, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_ANY),
                () -> zoomed(zoom::zoomIn));
        keys.put(new KeyCodeCombination(KeyCode.ADD, KeyCombination.SHORTCUT_DOWN), () -> zoomed(zoom::zoomIn));
        keys.put(
                new KeyCodeCombination(KeyCode.MINUS, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN),
                () -> zoomed(zoom::zoomOut));
        keys.put(new KeyCodeCombination(KeyCode.SUBTRACT, KeyCombination.SHORTCUT_DOWN), () -> zoomed(zoom::zoomOut));
        keys.put(new KeyCodeCombination(KeyCode.NUMPAD0, KeyCombination.SHORTCUT_DOWN), () -> zoomed(zoom::reset));
    }

    /** Changes the level as the user asked and says the new one for a moment; at a bound nothing happens. */
    private void zoomed(Runnable change) {
        int before = zoom.percent();
        change.run();
        if (zoom.percent() == before) {
            return;
        }
        zoomBadge.setText("Zoom " + zoom.percent() + " %");
        zoomBadge.setVisible(true);
        zoomBadgeShown.playFromStart();
    }

    /** Sets the light or dark AtlantaFX theme for the whole application (its stylesheet is parsed once, then cached). */
    public static void applyTheme(boolean dark) {
        Application.setUserAgentStylesheet(
                dark ? new PrimerDark().getUserAgentStylesheet() : new PrimerLight().getUserAgentStylesheet());
    }
}
